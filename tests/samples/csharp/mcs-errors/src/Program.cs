using System;
using Shop;

public static class Program
{
    public static int Main(string[] args)
    {
        var cart = new Cart().Add("tea", new Price(350), 2).Add("cake", new Price(420));
        Console.WriteLine("Total: " + cart.Total());
        return 0;
    }
}
