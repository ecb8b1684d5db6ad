#include <string>

namespace shop {
int price_of(const std::string &item)
{
    std::cout << "pricing " << item << "\n";
    return item.size();
}
}

int main()
{
    printf("%d\n", shop::price_of("apple"));
    return 0;
}
