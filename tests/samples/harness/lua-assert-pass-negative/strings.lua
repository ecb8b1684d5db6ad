local function upper(s) return string.upper(s) end
assert(upper("abc") == "ABC")
assert(upper("x1") == "X1")
print("OK")
local ok, err = pcall(assert, false)
print("caught: " .. err)
