#include <math.h>

/* cJSON's compare_double: <float.h> was removed, and gcc names no header for
   a macro it does not know as a builtin */
int near_equal(double a, double b)
{
    double maxVal = fabs(a) > fabs(b) ? fabs(a) : fabs(b);
    return (fabs(a - b) <= maxVal * DBL_EPSILON);
}
