export default [
  {
    files: ["**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { console: "readonly" } },
    rules: { "no-console": "warn", "no-unused-vars": "warn", eqeqeq: "error" },
  },
];
