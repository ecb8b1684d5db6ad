using NUnit.Framework;
using Shop;

namespace Shop.Tests
{
    [TestFixture]
    public class CartTests
    {
        [Test]
        public void StartsEmpty()
        {
            Assert.AreEqual(0, new Cart().Count());
        }

        [Test]
        public void CountsQuantities()
        {
            var cart = new Cart().Add("tea", new Price(350), 2).Add("cake", new Price(420));
            Assert.AreEqual(3, cart.Count());
        }

        [Test]
        public void TotalsPrices()
        {
            var cart = new Cart().Add("tea", new Price(350), 2).Add("cake", null);
            Assert.AreEqual("11.20 EUR", cart.Total().ToString());
        }
    }
}
