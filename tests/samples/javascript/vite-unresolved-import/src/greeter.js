export function greet(name) {
  return "hi " + name;
}
