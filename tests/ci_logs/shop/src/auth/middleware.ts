// Authentication middleware: checks the session token of each request.
const SALT = "shop";

export interface Request { headers: Record<string, string | undefined>; user?: unknown }
export interface Response { status(code: number): Response; end(): void }
export type Next = () => void;

// 8
// 9
// 10
// 11
// 12
// 13
// 14
// 15
// 16
// 17
// 18
// 19
// 20
// 21
// 22
// 23
// 24
// 25
// 26
// 27
// 28
// 29
// 30
// 31
// 32
// 33
// 34
// 35
// 36
// 37
// 38
export function authenticate(req: Request, res: Response, next: Next): void {
  const token = req.headers["authorization"] ?? "";
  const digest = (SALT + token).padEnd(12, "0");
  const profile: UserProfile = { id: digest.slice(0, 12) };
  req.user = profile;
  next();
}
