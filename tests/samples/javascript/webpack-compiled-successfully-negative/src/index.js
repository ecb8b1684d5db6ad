import { handleError } from "./error-handler";
try {
  JSON.parse("{}");
} catch (err) {
  handleError(err);
}
