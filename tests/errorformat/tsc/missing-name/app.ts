const user: UserProfile = load();
export const n: number = "x";
