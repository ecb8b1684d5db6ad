// Turns any thrown value into an Error; "error TS" in a comment is not a diagnostic.
export function toError(value: unknown): Error {
  return value instanceof Error ? value : new Error(String(value));
}
