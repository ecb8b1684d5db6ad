#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static char *copy_name(const char *name)
{
    char *copy = malloc(strlen(name) + 1);
    strcpy(copy, name);
    return copy;
}

int main(void)
{
    char *name = copy_name("cart");
    printf("%s\n", name);
    name = copy_name("basket");
    printf("%s\n", name);
    free(name);
    return 0;
}
