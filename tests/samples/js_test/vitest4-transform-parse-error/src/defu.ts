export function defu(a: Record<string, unknown>, b: Record<string, unknown>) {
  const out = { ...b };
  for (const key of Object.keys(a) {
    out[key] = a[key];
  }
  return out;
}
