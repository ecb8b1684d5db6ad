--- Which `faultlens` the plugin runs, and `:FaultlensInstall`, which makes one.
---
--- The server is, in order: the `cmd` given to `setup{}`, `faultlens` on PATH, or the
--- plugin's own environment under `stdpath('data')/faultlens/venv` that
--- `:FaultlensInstall` creates (a Python venv with faultlens installed from PyPI, or from
--- the spec given: a wheel, a version, a path).

local M = {}

local is_windows = vim.fn.has('win32') == 1

---@return string
function M.venv_dir()
  return vim.fs.joinpath(vim.fn.stdpath('data') --[[@as string]], 'faultlens', 'venv')
end

---@return string
local function venv_bin(name)
  if is_windows then
    return vim.fs.joinpath(M.venv_dir(), 'Scripts', name .. '.exe')
  end
  return vim.fs.joinpath(M.venv_dir(), 'bin', name)
end

--- The managed environment's faultlens, when it is there.
---@return string?
function M.managed()
  local exe = venv_bin('faultlens')
  return vim.fn.executable(exe) == 1 and exe or nil
end

---@class faultlens.Executable
---@field cmd string[] The server command.
---@field source 'setup'|'path'|'managed'|'missing' Where it came from.
---@field path string? The executable.

--- The server command to use, and where it came from.
---@param explicit string[]? `setup{ cmd = ... }`
---@return faultlens.Executable
function M.resolve(explicit)
  if explicit and #explicit > 0 then
    return { cmd = explicit, source = 'setup', path = vim.fn.exepath(explicit[1]) }
  end
  local on_path = vim.fn.exepath('faultlens')
  if on_path ~= '' then
    return { cmd = { on_path, 'serve' }, source = 'path', path = on_path }
  end
  local managed = M.managed()
  if managed then
    return { cmd = { managed, 'serve' }, source = 'managed', path = managed }
  end
  return { cmd = { 'faultlens', 'serve' }, source = 'missing' }
end

---@param msg string
---@param level integer?
local function say(msg, level)
  vim.notify('faultlens: ' .. msg, level or vim.log.levels.INFO)
end

--- The first Python 3.11+ found: `g:faultlens_python`, then python3, then python.
---@param done fun(python: string?, looked: string[])
local function find_python(done)
  local tries = vim.g.faultlens_python and { vim.g.faultlens_python } or { 'python3', 'python' }
  local looked = {}
  local function try(i)
    local name = tries[i]
    if not name then
      return done(nil, looked)
    end
    local exe = vim.fn.exepath(name)
    if exe == '' then
      looked[#looked + 1] = name .. ' (not found)'
      return try(i + 1)
    end
    local probe = { exe, '-c', 'import sys; print("%d.%d" % sys.version_info[:2])' }
    vim.system(probe, { text = true }, vim.schedule_wrap(function(res)
      local major, minor = (res.stdout or ''):match('^(%d+)%.(%d+)')
      major, minor = tonumber(major), tonumber(minor)
      if res.code == 0 and major and (major > 3 or (major == 3 and minor >= 11)) then
        return done(exe, looked)
      end
      looked[#looked + 1] = ('%s %s'):format(exe, major and (major .. '.' .. minor) or '(no version)')
      try(i + 1)
    end))
  end
  try(1)
end

---@class faultlens.InstallOpts
---@field spec string? What pip installs (default `faultlens`, or `g:faultlens_install_spec`).
---@field on_done fun(ok: boolean, message: string)? Called when it ends (scheduled).

--- Create (or update) the managed environment; progress and the result as notifications.
---@param opts faultlens.InstallOpts?
function M.install(opts)
  opts = opts or {}
  local spec = opts.spec
  if spec == nil or spec == '' then
    spec = vim.g.faultlens_install_spec or 'faultlens'
  end
  local dir = M.venv_dir()
  local log = vim.fs.joinpath(vim.fn.stdpath('log') --[[@as string]], 'faultlens-install.log')
  -- Every callback below runs on the main loop (vim.schedule_wrap): they call vim.fn.
  local function finish(ok, message)
    say(message, ok and vim.log.levels.INFO or vim.log.levels.ERROR)
    if ok then
      vim.api.nvim_exec_autocmds('User', { pattern = 'FaultlensInstalled', data = { path = M.managed() } })
    end
    if opts.on_done then
      opts.on_done(ok, message)
    end
  end
  local function step(argv, what, next_step)
    say(what .. ' …')
    vim.system(argv, { text = true }, vim.schedule_wrap(function(res)
      local f = io.open(log, 'a')
      if f then
        f:write(('$ %s\n%s%s\n'):format(table.concat(argv, ' '), res.stdout or '', res.stderr or ''))
        f:close()
      end
      if res.code ~= 0 then
        local last = vim.trim(res.stderr or ''):match('([^\n]*)$') or ''
        return finish(false, ('%s failed (exit %d): %s — the whole output is in %s'):format(what, res.code, last, log))
      end
      next_step()
    end))
  end
  find_python(function(python, looked)
    if not python then
      return finish(
        false,
        ('no Python 3.11 or newer found (looked at: %s); install one, or set g:faultlens_python'):format(
          #looked > 0 and table.concat(looked, ', ') or 'nothing'
        )
      )
    end
    vim.fn.mkdir(vim.fs.dirname(log), 'p')
    step({ python, '-m', 'venv', dir }, 'creating ' .. dir, function()
      local pip = { venv_bin('python'), '-m', 'pip', 'install', '--disable-pip-version-check', '--upgrade', spec }
      step(pip, 'installing ' .. spec, function()
        local exe = M.managed()
        if not exe then
          return finish(false, 'the install ran, but ' .. venv_bin('faultlens') .. ' is missing')
        end
        -- Use it from now on, in this session too (a server already running keeps going).
        if vim.lsp.config then
          vim.lsp.config('faultlens', { cmd = { exe, 'serve' } })
        end
        finish(true, 'installed in ' .. dir .. ' (' .. exe .. ')')
      end)
    end)
  end)
end

return M
