#include "unity.h"
#include "cart.h"

void setUp(void) {}
void tearDown(void) {}

static void count_counts_every_item(void)
{
    int prices[] = {1, 2, 3, 4};
    TEST_ASSERT_TRUE(cart_count(prices, 4) == 4);
}

int main(void)
{
    UNITY_BEGIN();
    RUN_TEST(count_counts_every_item);
    return UNITY_END();
}
