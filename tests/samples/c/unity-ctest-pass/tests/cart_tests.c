#include "unity.h"
#include "cart.h"

void setUp(void) {}
void tearDown(void) {}

static void total_adds_the_prices(void)
{
    int prices[] = {120, 80, 5};
    TEST_ASSERT_EQUAL_INT(205, cart_total(prices, 3));
}

static void empty_cart_totals_zero(void)
{
    TEST_ASSERT_EQUAL_INT(0, cart_total(NULL, 0));
}

int main(void)
{
    UNITY_BEGIN();
    RUN_TEST(total_adds_the_prices);
    RUN_TEST(empty_cart_totals_zero);
    return UNITY_END();
}
