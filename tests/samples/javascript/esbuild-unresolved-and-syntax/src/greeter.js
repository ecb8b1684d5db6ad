export function greet(name) {
  const prefix = "hi" +;
  return prefix + name;
}
