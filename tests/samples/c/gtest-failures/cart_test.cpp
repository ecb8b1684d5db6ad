#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

static int total(const std::vector<int>& prices) {
  int sum = 0;
  for (size_t i = 1; i < prices.size(); ++i) sum += prices[i];
  return sum;
}

static int stock(const char* item) {
  if (std::string(item) == "pear") throw std::runtime_error("inventory service unreachable");
  return 3;
}

TEST(Cart, TotalAddsPrices) { EXPECT_EQ(205, total({120, 80, 5})); }

TEST(Cart, EmptyCartIsZero) { ASSERT_EQ(0, total({})); }

TEST(Cart, StockOfPear) { EXPECT_GT(stock("pear"), 0); }

class CartSize : public ::testing::TestWithParam<int> {};

TEST_P(CartSize, SingleItemTotalsItsPrice) {
  std::vector<int> prices(1, GetParam());
  EXPECT_TRUE(total(prices) == GetParam()) << "one item of price " << GetParam();
}

INSTANTIATE_TEST_SUITE_P(Prices, CartSize, ::testing::Values(0, 7));
