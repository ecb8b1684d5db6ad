#include <stdlib.h>

/* cJSON_InitHooks: the ';' of a bare return was dropped before the block's '}' */
static void *(*allocate)(size_t) = malloc;

void init_hooks(void *(*alloc)(size_t))
{
    if (alloc == NULL)
    {
        allocate = malloc;
        return
    }
    allocate = alloc;
}
