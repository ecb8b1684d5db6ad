def summary(rows):
    total = sum(rows)
      return f"{len(rows)} rows, total {total}"


print(summary([1, 2, 3]))
