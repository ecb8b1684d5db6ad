-- editor setup
vim.opt.number = true
require("telescope").setup({})
