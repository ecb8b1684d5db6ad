module.exports = { testEnvironment: "node", reporters: [["default", { summaryThreshold: 0 }]] };
