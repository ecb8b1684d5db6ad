#include <stdio.h>

int mean(const int *xs, int n) {
    int total = 0, unused;
    for (int i = 0; i < n; i++)
        total += xs[i];
    return total / n;
}

int main(void) {
    int xs[] = {1, 2, 3};
    printf("%d\n", mean(xs, 3));
    return 0;
}
