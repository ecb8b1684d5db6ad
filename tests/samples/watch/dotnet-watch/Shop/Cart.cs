using System.Collections.Generic;
using System.Linq;

namespace Shop
{
    public sealed class Cart
    {
        private readonly List<(string Name, Price Price, int Quantity)> items = new List<(string, Price, int)>();

        public Cart Add(string name, Price price, int quantity = 1)
        {
            items.Add((name, price, quantity));
            return this;
        }

        public int Count()
        {
            return items.Sum(item => item.Quantity);
        }

        public Price Total()
        {
            var total = new Price(0);
            foreach (var item in items)
            {
                total = total.Add(new Price(item.Price.Cents * item.Quantity));
            }

            return total;
        }
    }
}
