export default [
  {
    files: ["**/*.js"],
    languageOptions: { ecmaVersion: 2022, sourceType: "module", globals: { console: "readonly" } },
    rules: { "no-unused-vars": "error", "no-undef": "error", eqeqeq: "error", "no-console": "warn" },
  },
];
