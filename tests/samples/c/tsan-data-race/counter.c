#include <pthread.h>
#include <stdio.h>

static int orders;

static void *take_orders(void *arg)
{
    (void)arg;
    for (int i = 0; i < 1000; i++)
        orders++;
    return NULL;
}

int main(void)
{
    pthread_t a, b;
    pthread_create(&a, NULL, take_orders, NULL);
    pthread_create(&b, NULL, take_orders, NULL);
    pthread_join(a, NULL);
    pthread_join(b, NULL);
    printf("orders: %d\n", orders);
    return 0;
}
