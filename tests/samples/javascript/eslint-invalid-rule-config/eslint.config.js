export default [
  {
    files: ["src/**/*.js"],
    rules: {
      eqeqeq: "error",
      "no-unused-vars": "eror",
    },
  },
];
