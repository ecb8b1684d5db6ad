export class ValidationError extends Error {
  constructor(message: string) {
    super(message);
    this.name = "ValidationError";
  }
}

export function failed(count: number): string {
  return `${count} failed`;
}
