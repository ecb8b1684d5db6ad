export function greet(name: string): string {
  return "hi " + name;
}
