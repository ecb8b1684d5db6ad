export function merge(base: object, extra: object) {
  return { ...base, ...extra };
}
