export function trimmed(str: string, min: number, max: number): string {
  if (min === max) return "";
  let start = min;
  let end = max;
  while (start < end && str.charCodeAt(start) === 32) start++;
  while (end > strat && str.charCodeAt(end - 1) === 32) end--;
  return str.slice(start, end);
}

export function attribute(str: string, eq: number): string | undefined {
  const val = eq < str.length ? str.slice(eq + 1) : undefined;
  return vl;
}
