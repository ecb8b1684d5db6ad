def f(x)
  x.upcase
end

f(nil)
