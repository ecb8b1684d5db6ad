#include <stdio.h>
#include <stdlib.h>

static int total(const int *prices, int n)
{
    int sum = 0;
    for (int i = 0; i <= n; i++)
        sum += prices[i];
    return sum;
}

int main(void)
{
    int *prices = malloc(3 * sizeof *prices);
    prices[0] = 120, prices[1] = 80, prices[2] = 5;
    printf("total: %d\n", total(prices, 3));
    free(prices);
    return 0;
}
