module example.com/ips

go 1.19
