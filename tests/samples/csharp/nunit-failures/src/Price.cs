using System;
using System.Globalization;

namespace Shop
{
    public sealed class Price
    {
        public Price(int cents, string currency = "EUR")
        {
            Cents = cents;
            Currency = currency;
        }

        public int Cents { get; }

        public string Currency { get; }

        public Price Add(Price other)
        {
            if (other.Currency != Currency)
            {
                throw new InvalidOperationException("currency mismatch");
            }

            return new Price(Cents + other.Cents, Currency);
        }

        public override string ToString()
        {
            return string.Format(CultureInfo.InvariantCulture, "{0:0.00} {1}", Cents / 100.0, Currency);
        }
    }
}
