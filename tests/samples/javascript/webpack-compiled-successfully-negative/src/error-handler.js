// Logs an error and keeps going: "ERROR in" here is only a string.
export function handleError(err) {
  console.error("ERROR in handler:", err.message);
}
