const { formatInvoice } = require("./invoice");

test("renders the invoice", () => {
  expect(formatInvoice(42)).toMatchSnapshot();
});
