export class Result<T> {
  constructor(readonly value: T) {}
}

export const ok = <T>(value: T): Result<T> => new Result(value);
