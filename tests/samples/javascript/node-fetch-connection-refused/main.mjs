// The API server this script talks to is not running (nothing listens on 59999).
const res = await fetch('http://127.0.0.1:59999/api/orders');
console.log((await res.json()).length);
