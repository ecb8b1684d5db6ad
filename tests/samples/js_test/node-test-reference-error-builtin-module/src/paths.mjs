export function reportPath(dir, name) {
  return path.join(dir, 'reports', `${name}.json`)
}

export function extension(file) {
  return path.extname(file)
}
