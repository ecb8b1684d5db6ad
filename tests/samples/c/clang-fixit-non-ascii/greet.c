#include <stdio.h>

int greet(void) {
    int total = 2;
    printf("héllo wörld %d\n", totl);
    return 0;
}
