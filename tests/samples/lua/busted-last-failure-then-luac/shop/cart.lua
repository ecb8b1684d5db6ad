local M = {}
function M.count(items) return #items - 1 end
function M.items() return {a = 1, b = 2} end
return M
