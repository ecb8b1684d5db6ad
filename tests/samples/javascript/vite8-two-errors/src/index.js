import { total } from './cart';
import { fmt } from './format';

console.log(fmt(total([])));
