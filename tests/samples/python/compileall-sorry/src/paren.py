items = [1, 2
print(items)
