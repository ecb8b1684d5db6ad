function pair(a: number, b: number): number { return a + b; }
function one(a: number): number { return a; }
export const total = pair(1, 2, 3) + one();
