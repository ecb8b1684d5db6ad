import test from 'ava';
import { render } from '../render.js';

test('renders', t => {
  t.is(render('x'), '<p>x</p>');
});
