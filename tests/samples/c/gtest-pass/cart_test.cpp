#include <gtest/gtest.h>

#include <vector>

static int total(const std::vector<int>& prices) {
  int sum = 0;
  for (int p : prices) sum += p;
  return sum;
}

// The names hold tempting words: nothing here fails.
TEST(Cart, TotalAddsPricesWithoutFailure) { EXPECT_EQ(205, total({120, 80, 5})); }

TEST(Cart, EmptyCartIsZeroNotFailed) { ASSERT_EQ(0, total({})); }
