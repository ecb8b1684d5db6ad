export function parse(text: string): number
export function parse(text: string, radix: number): number
export function prase(text: string, radix = 10): number {
  return Number.parseInt(text, radix)
}
