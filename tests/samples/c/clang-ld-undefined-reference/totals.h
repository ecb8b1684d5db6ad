#ifndef TOTALS_H
#define TOTALS_H
int compute_total(const int *values, int n);
#endif
