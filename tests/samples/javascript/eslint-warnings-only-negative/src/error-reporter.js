// error-reporter.js: prints errors, lints with warnings only.
export function reportError(error) {
  const unusedCount = 0;
  console.error("error:", error.message);
}
