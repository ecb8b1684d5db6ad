export const combine = <T>(results: Result<T>[]): Result<T[]> =>
  ok(results.map((r) => r.value))
