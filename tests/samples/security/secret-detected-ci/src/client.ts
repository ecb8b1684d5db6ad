export const client = { baseUrl: "https://api.example.com" };
