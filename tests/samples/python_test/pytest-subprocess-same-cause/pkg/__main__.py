from pkg.core import total

print(total([1, 2]))
