local function upper(s) return string.upper(s) end
assert(upper("abc") == "ABC")
assert(upper("x1") == "x1")
print("OK")
