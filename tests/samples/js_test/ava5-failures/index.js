export function slugify(text) {
  return text.trim().toLowerCase().replace(/\s+/g, '-');
}

export function wordCount(text) {
  return text.split(' ').lenght;
}

export function title(text) {
  return capitalize(text);
}
