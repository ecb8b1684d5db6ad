module example.com/errs

go 1.19
