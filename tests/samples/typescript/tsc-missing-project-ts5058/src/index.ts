export const ok: number = 1;
