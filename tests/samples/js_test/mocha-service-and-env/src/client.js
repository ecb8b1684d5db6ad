const http = require("node:http");

function health() {
  return new Promise((resolve, reject) => {
    const req = http.get("http://localhost:59242/health", (res) => resolve(res.statusCode));
    req.on("error", reject);
  });
}

function databaseUrl() {
  if (process.env.SHOP_DATABASE_URL === undefined) {
    throw new Error("Missing required environment variable: SHOP_DATABASE_URL");
  }
  return process.env.SHOP_DATABASE_URL;
}

module.exports = { health, databaseUrl };
