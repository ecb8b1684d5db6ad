#include <stdio.h>
#include <stdlib.h>

int main(void)
{
    int *prices = calloc(3, sizeof *prices);
    prices[2] = 5;
    printf("checked with AddressSanitizer: no ERROR: 0 leaks, 0 overflows\n");
    printf("WARNING: ThreadSanitizer: not enabled in this build\n");
    free(prices);
    return 0;
}
