#ifndef CART_H
#define CART_H
int cart_total(const int *prices, int n);
int cart_count(const int *prices, int n);
#endif
