export function total(prices: number[]): number {
  return prices.reduce((a, b) => a + b, 0);
}

export function withTax(prices: number[]): number {
  return totl(prices) * 1.2;
}

export class Cart {
  items: number[] = [];
  count(): number {
    return this.item.length;
  }
}
