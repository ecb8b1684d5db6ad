test("waits for the queue to drain", async () => {
  await new Promise(() => {});
}, 1000);
