function formatInvoice(total) {
  return { total, currency: "USD" };
}
module.exports = { formatInvoice };
