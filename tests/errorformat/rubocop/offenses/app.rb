def Foo( x )
  y = 1
  return x
end
