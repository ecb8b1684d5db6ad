export function pick(list) {
  return list.filter((x) => x.ok;
}
