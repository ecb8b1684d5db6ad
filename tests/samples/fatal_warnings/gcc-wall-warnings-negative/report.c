#include <stdio.h>

int count_errors(const char *log)
{
    int errors = 0;
    int failed;
    for (const char *p = log; *p; p++)
        if (*p == '!')
            errors++;
    printf("%d errors\n", errors);
    return errors;
}
