module example.com/efm

go 1.21
