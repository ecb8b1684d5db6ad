// A CLI that prints ESLint-like words while recovering from a bad response.
console.log('Oops! Something went wrong! :(');
console.log('Retrying the request (attempt 2 of 3) ...');
console.log('Configuration for rule "retry" is invalid? no: using the default of 3');
console.log('Done: 3 items synced.');
