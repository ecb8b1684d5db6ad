---@brief
---
--- faultlens: classified build, test and agent failures as diagnostics, with one
--- automatic recovery attempt as a quick fix and the escalation shown on hover.
---
--- Install the server (`:FaultlensInstall`, or `pipx install faultlens`), then:
---
--- ```lua
--- vim.lsp.enable('faultlens')        -- or require('faultlens').setup{} for the commands' extras
--- ```
---
--- Failures land in files of any language, so the config attaches to every filetype.
--- The root is the nearest folder holding one of `root_markers`, else the current directory.
--- Settings go under `settings.faultlens` (see `:help faultlens-settings`).

-- faultlens on PATH, else the environment :FaultlensInstall made (lua/faultlens/install.lua).
local ok, install = pcall(require, 'faultlens.install')
local cmd = ok and install.resolve().cmd or { 'faultlens', 'serve' }

---@type vim.lsp.Config
return {
  cmd = cmd,
  -- no `filetypes`: failures are shown in files of every language
  root_markers = { '.faultlens', '.git', 'pyproject.toml', 'package.json', 'Cargo.toml', 'go.mod' },
  root_dir = function(bufnr, on_dir)
    local markers = vim.lsp.config.faultlens and vim.lsp.config.faultlens.root_markers
      or { '.faultlens', '.git' }
    on_dir(vim.fs.root(bufnr, markers) or vim.fn.getcwd())
  end,
  settings = { faultlens = vim.empty_dict() },
  init_options = vim.empty_dict(),
}
