#include <stdio.h>
#include <string.h>

struct item { const char *name; int qty; };

static int qty_of(struct item *items, int n, const char *name)
{
    for (int i = 0; i <= n; i++)
        if (strcmp(items[i].name, name) == 0)
            return items[i].qty;
    return -1;
}

int main(void)
{
    struct item items[] = {{"apple", 3}, {"pear", 0}};
    printf("checking stock\n");
    return qty_of(items, 2, "plum") == -1 ? 0 : 1;
}
