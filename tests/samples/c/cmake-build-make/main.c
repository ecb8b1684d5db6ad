#include <stdio.h>

static int sum(const int *values, int n)
{
    int total = 0;
    for (int i = 0; i < n; i++)
        total += values[i];
    return totl;
}

static uint32_t is_empty(const char *text)
{
    return text[0] == '\0';
}

int main(void)
{
    int values[] = {1, 2, 3};
    printf("%d %d\n", sum(values, 3), is_empty(""));
    return 0;
}
