#include <iostream>
#include <stdexcept>
#include <vector>

static int first_price(const std::vector<int>& prices) {
    if (prices.empty()) throw std::runtime_error("cart is empty");
    return prices.front();
}

int main() {
    std::vector<int> prices;
    std::cout << "first: " << first_price(prices) << std::endl;
}
