// A server process that never answers initialize.
setInterval(() => {}, 1000);
