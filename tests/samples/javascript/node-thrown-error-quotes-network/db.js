function connect(url) {
  if (!url.startsWith('postgres://')) throw new Error(`connection refused: bad url ${url}`);
  return { url };
}
connect('mysql://localhost/shop');
