// x eslint(no-debugger): not an error here; 0 errors expected
export function merge(base: Record<string, unknown>, extra: Record<string, unknown>) {
  const unused = 1;
  return { ...base, ...extra };
}
