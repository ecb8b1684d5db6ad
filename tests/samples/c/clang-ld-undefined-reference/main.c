#include <stdio.h>
#include "totals.h"

int main(void)
{
    int values[] = {4, 5, 6};
    printf("%d\n", compute_total(values, 3));
    return 0;
}
