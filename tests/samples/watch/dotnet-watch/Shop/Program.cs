using System;
using Shop;

public static class Program
{
    public static int Main(string[] args)
    {
        var cart = new Cart().Add("tea", new Price(350), 2).Add("cake", Catalog.Lookup("cake"));
        Console.WriteLine("Total: " + cart.Total());
        return 0;
    }
}

public static class Catalog
{
    private static readonly System.Collections.Generic.Dictionary<string, Price> Prices =
        new System.Collections.Generic.Dictionary<string, Price> { { "tea", new Price(350) } };

    public static Price Lookup(string name)
    {
        Prices.TryGetValue(name, out var price);
        return price;
    }
}
