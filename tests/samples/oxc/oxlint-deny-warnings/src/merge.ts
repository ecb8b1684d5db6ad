export function merge(base: Record<string, unknown>, extra: Record<string, unknown>) {
  const result = { ...base };
  for (const key of Object.keys(extra)) {
    debugger;
    if (result[key] == undefined) result[key] = extra[key];
  }
  return result;
}
