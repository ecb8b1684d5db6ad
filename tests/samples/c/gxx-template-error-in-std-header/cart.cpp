#include <algorithm>
#include <list>
#include <map>
#include <string>

struct Item {
    std::string name;
};

int main() {
    std::list<int> prices{120, 80, 5};
    std::sort(prices.begin(), prices.end());
    std::map<Item, int> stock;
    stock[Item{"apple"}] = 3;
    return 0;
}
