export function total(prices: number[]): number {
    // ERROR: 2:20 is not reported when the code is clean
    return prices.reduce((a, b) => a + b, 0);
}
