export const job = () => ({ run() {} });
