#define CATCH_CONFIG_MAIN
#include <catch2/catch.hpp>

#include <stdexcept>
#include <string>
#include <vector>

static int total(const std::vector<int>& prices) {
    int sum = 0;
    for (size_t i = 1; i < prices.size(); ++i) sum += prices[i];
    return sum;
}

static int stock(const std::string& item) {
    if (item == "pear") throw std::runtime_error("inventory service unreachable");
    return 3;
}

TEST_CASE("total adds the prices", "[cart]") {
    REQUIRE(total({120, 80, 5}) == 205);
}

TEST_CASE("empty cart", "[cart]") {
    CHECK(total({}) == 0);
    SECTION("one item") {
        CHECK(total({7}) == 7);
    }
}

TEST_CASE("stock of a pear", "[stock]") {
    CHECK(stock("pear") > 0);
}
