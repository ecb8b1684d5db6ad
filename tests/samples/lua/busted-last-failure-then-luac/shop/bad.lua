local x = 1 / / 2
return x
