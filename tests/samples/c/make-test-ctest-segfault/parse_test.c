#include <stdio.h>
int main(void) {
    volatile int *p = (int *)8;
    printf("%d\n", *p);
    return 0;
}
