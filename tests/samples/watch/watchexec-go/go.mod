module example.com/cart

go 1.19
