import test from 'ava';
import { slugify, wordCount, title } from '../index.js';

test('joins words with underscores', t => {
  t.is(slugify('Hello World'), 'hello_world');
});

test('counts words', t => {
  // three words, two spaces
  t.is(wordCount('a b c'), 3);

});

test('titles', t => {
  t.is(title('hello'), 'Hello');
});

test('trims', t => {
  t.is(slugify('  x  '), 'x');
});
