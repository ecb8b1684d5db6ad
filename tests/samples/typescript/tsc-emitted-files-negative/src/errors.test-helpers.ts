import { ValidationError, failed } from "./error-handler";

export const noErrors = (): string => failed(0);
export const sample = new ValidationError("error: not a real failure");
