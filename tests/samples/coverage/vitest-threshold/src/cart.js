function total(items) {
  return items.reduce((sum, i) => sum + i.price * i.qty, 0);
}

function discount(t, code) {
  if (code === 'HALF') return t / 2;
  return t;
}

export { total, discount };
