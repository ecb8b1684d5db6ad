#include "cart.h"

int cart_total(const int *prices, int n)
{
    int total = 0;
    for (int i = 0; i < n; i++)
        total += prices[i];
    return total;
}

int cart_count(const int *prices, int n)
{
    (void)prices;
    return n;
}
