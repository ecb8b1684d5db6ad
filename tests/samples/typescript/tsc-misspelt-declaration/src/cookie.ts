export interface Options {
  encode?: (str: string) => string;
}

export function stringify(name: string, value: string, options?: Options): string {
  const enc = options?.encode || encodeURIComponent;
  let sr = name + "=" + enc(value);
  if (value.length > 10) {
    str += "; Long";
  }
  return str;
}
