export async function health() {
  const res = await fetch("http://127.0.0.1:59241/health");
  return res.status;
}

export function apiKey() {
  const key = process.env.SHOP_API_KEY;
  if (!key) {
    throw new Error("SHOP_API_KEY is not set");
  }
  return key;
}
