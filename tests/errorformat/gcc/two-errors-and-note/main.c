#include <stdio.h>

static int twice(int x) { return x * 2; }

int main(void) {
    int unused;
    printf("%d\n", twice(undeclared));
    return twice("three");
}
