"""A missing third-party module: which package, which package manager, which
command.

The package manager is the one the failing command used (`uv run pytest` →
uv, `poetry run` → poetry, `pnpm test` → pnpm, `.venv/bin/python -m pytest` →
that venv's pip), else the one the project's lock and manifest files name,
nearest the failing file first.  The commands never re-pin what the project
did not ask for: a lock is installed as it is (`uv sync --frozen --inexact`,
`pnpm install --frozen-lockfile`, `yarn install --frozen-lockfile`), npm and
pip install only the package, as the manifest declares it (`npm install
--no-save lodash@^4`, `pip install 'requests==2.31'`).  Installing is automatic only for a package the
project already declares (the environment is merely out of sync); a package
the project does not declare is only *suggested* (the exact argv shown to a
human): a name read from output is never installed on its own say-so.
"""

from __future__ import annotations

import json
import re
import tomllib
from dataclasses import dataclass
from pathlib import Path

from faultlens.classifier.files import read_text

from ..safety import valid

# Import names whose distribution is named differently.
PY_DISTRIBUTIONS = {
    "yaml": "PyYAML",
    "cv2": "opencv-python",
    "PIL": "Pillow",
    "sklearn": "scikit-learn",
    "bs4": "beautifulsoup4",
    "dateutil": "python-dateutil",
    "dotenv": "python-dotenv",
    "jwt": "PyJWT",
    "magic": "python-magic",
    "Crypto": "pycryptodome",
    "OpenSSL": "pyOpenSSL",
    "google.protobuf": "protobuf",
    "attr": "attrs",
    "serial": "pyserial",
    "usb": "pyusb",
    "docx": "python-docx",
    "git": "GitPython",
}
NODE_BUILTINS = frozenset(
    [
        "assert",
        "async_hooks",
        "buffer",
        "child_process",
        "cluster",
        "console",
        "constants",
        "crypto",
        "dgram",
        "dns",
        "domain",
        "events",
        "fs",
        "http",
        "http2",
        "https",
        "inspector",
        "module",
        "net",
        "os",
        "path",
        "perf_hooks",
        "process",
        "punycode",
        "querystring",
        "readline",
        "repl",
        "stream",
        "string_decoder",
        "timers",
        "tls",
        "trace_events",
        "tty",
        "url",
        "util",
        "v8",
        "vm",
        "wasi",
        "worker_threads",
        "zlib",
        "test",
    ]
)
RUST_RESERVED = frozenset({"std", "core", "alloc", "crate", "self", "super", "proc_macro"})


@dataclass(slots=True)
class InstallPlan:
    ecosystem: str  # python | node | rust
    manager: str  # uv | poetry | pipenv | pip | npm | pnpm | yarn | cargo
    package: str
    declared: bool
    argv: list[str]  # the command: run when declared, suggested otherwise
    manifest: str  # the file that decided (workspace-relative)
    cwd: Path


def normalise_py(name: str) -> str:
    return re.sub(r"[-_.]+", "-", name).lower()


def package_for(ecosystem: str, module: str) -> str | None:
    """The validated package name for an import name, or None (local or invalid)."""
    if ecosystem == "python":
        if module.startswith("."):
            return None
        dist = PY_DISTRIBUTIONS.get(module) or PY_DISTRIBUTIONS.get(module.split(".")[0])
        dist = dist or module.split(".")[0]
        return dist if valid("pypi", dist) else None
    if ecosystem == "node":
        if module.startswith((".", "/", "node:")):
            return None
        parts = module.split("/")
        name = "/".join(parts[:2]) if module.startswith("@") else parts[0]
        if name in NODE_BUILTINS:
            return None
        return name if valid("npm", name) else None
    if ecosystem == "rust":
        if module in RUST_RESERVED:
            return None
        return module.replace("_", "-") if valid("crate", module) else None
    return None


def _py_declared(folder: Path) -> tuple[set[str], str | None]:
    names: set[str] = set()
    source = None
    pyproject = folder / "pyproject.toml"
    if pyproject.is_file():
        try:
            data = tomllib.loads(read_text(pyproject))
        except (OSError, tomllib.TOMLDecodeError):
            data = {}
        project = data.get("project", {})
        reqs = list(project.get("dependencies", []))
        for extra in project.get("optional-dependencies", {}).values():
            reqs.extend(extra)
        for group in data.get("dependency-groups", {}).values():
            reqs.extend(x for x in group if isinstance(x, str))
        poetry = data.get("tool", {}).get("poetry", {})
        reqs.extend(poetry.get("dependencies", {}).keys())
        for grp in poetry.get("group", {}).values():
            reqs.extend(grp.get("dependencies", {}).keys())
        for r in reqs:
            m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", str(r))
            if m:
                names.add(normalise_py(m.group(1)))
        source = "pyproject.toml"
    for req in sorted(folder.glob("requirements*.txt")):
        try:
            for line in read_text(req).splitlines():
                m = re.match(r"\s*([A-Za-z0-9][A-Za-z0-9._-]*)", line)
                if m and not line.lstrip().startswith(("#", "-")):
                    names.add(normalise_py(m.group(1)))
        except OSError:
            continue
        source = source or req.name
    return names, source


# (lock file, manager, command when declared, command + package when not), first found wins.
# A declared package: the lock installed as it is (nothing re-pinned, nothing removed).
_LOCKED: dict[str, tuple[tuple[str, str, list[str], list[str]], ...]] = {
    "python": (
        ("uv.lock", "uv", ["uv", "sync", "--frozen", "--inexact"], ["uv", "add"]),
        ("poetry.lock", "poetry", ["poetry", "install"], ["poetry", "add"]),
        ("Pipfile.lock", "pipenv", ["pipenv", "sync"], ["pipenv", "install"]),
        ("Pipfile", "pipenv", ["pipenv", "install", "--skip-lock"], ["pipenv", "install"]),
    ),
    "node": (
        ("pnpm-lock.yaml", "pnpm", ["pnpm", "install", "--frozen-lockfile"], ["pnpm", "add"]),
        ("yarn.lock", "yarn", ["yarn", "install", "--frozen-lockfile"], ["yarn", "add"]),
    ),
}
# The manager a command runs through (its first word).
COMMAND_MANAGERS = {
    "uv": "uv",
    "uvx": "uv",
    "poetry": "poetry",
    "pipenv": "pipenv",
    "pnpm": "pnpm",
    "yarn": "yarn",
    "npm": "npm",
    "npx": "npm",
}


def manager_of(command: list[str] | None) -> str | None:
    """The package manager the failing command ran through, if it says."""
    if not command:
        return None
    return COMMAND_MANAGERS.get(Path(command[0]).name)


def _venv_python(command: list[str] | None) -> str | None:
    """The command's own Python when it is a virtualenv's (`.venv/bin/python`)."""
    if not command:
        return None
    exe = Path(command[0])
    if exe.name.startswith("python") and (exe.parent.parent / "pyvenv.cfg").is_file():
        return command[0]
    return None


def _locked_plan(
    ecosystem: str, folder: Path, package: str, declared: bool, prefer: str | None = None
) -> InstallPlan | None:
    """The plan of the manager whose lock file is in `folder` (the command's own
    manager first, when its lock is there)."""
    rows = _LOCKED[ecosystem]
    ordered = [r for r in rows if r[1] == prefer] + [r for r in rows if r[1] != prefer]
    for lock, manager, sync, add in ordered:
        if (folder / lock).is_file():
            if manager == "yarn" and declared and (folder / ".yarnrc.yml").is_file():
                sync = ["yarn", "install", "--immutable"]  # yarn 2+
            argv = list(sync) if declared else [*add, package]
            return InstallPlan(ecosystem, manager, package, declared, argv, lock, folder)
    return None


def _py_requirement(folder: Path, package: str) -> str:
    """How the project declares `package` in requirements*.txt (`requests==2.31`),
    else the bare name: pip then installs what the project pinned."""
    want = normalise_py(package)
    for req in sorted(folder.glob("requirements*.txt")):
        try:
            lines = req.read_text("utf-8").splitlines()
        except OSError:
            continue
        for line in lines:
            spec = line.split("#", 1)[0].strip()
            m = re.match(r"([A-Za-z0-9][A-Za-z0-9._-]*)\s*(\[[^\]]*\])?\s*([<>=!~][^;]*)?", spec)
            if m and normalise_py(m.group(1)) == want and m.group(3):
                version = re.sub(r"\s+", "", m.group(3))
                if re.fullmatch(r"[<>=!~0-9A-Za-z.*,+-]+", version):
                    return f"{package}{version}"
    return package


def _python_plan(
    folder: Path, package: str, python: str, command: list[str] | None = None
) -> InstallPlan | None:
    declared_names, source = _py_declared(folder)
    declared = normalise_py(package) in declared_names
    prefer = manager_of(command)
    venv = _venv_python(command)
    locked = _locked_plan("python", folder, package, declared, prefer)
    if locked is not None:
        return locked
    if source is not None:
        spec = _py_requirement(folder, package) if declared else package
        return InstallPlan(
            "python",
            "pip",
            package,
            declared,
            [venv or python, "-m", "pip", "install", spec],
            source,
            folder,
        )
    return None


def _node_plan(folder: Path, package: str, command: list[str] | None = None) -> InstallPlan | None:
    manifest = folder / "package.json"
    if not manifest.is_file():
        return None
    try:
        data = json.loads(read_text(manifest))
    except (OSError, ValueError):
        data = {}
    ranges = [
        data[k][package]
        for k in ("dependencies", "devDependencies", "peerDependencies", "optionalDependencies")
        if isinstance(data.get(k), dict) and package in data[k]
    ]
    declared = bool(ranges)
    prefer = manager_of(command)
    if prefer != "npm":
        locked = _locked_plan("node", folder, package, declared, prefer)
        if locked is not None:
            return locked
    if not declared:
        argv = ["npm", "install", package]
    elif isinstance(ranges[0], str) and re.fullmatch(r"[\w.^~<>=| *+-]+", ranges[0]):
        # A registry range: only this package, as declared; package.json and the
        # lock stay as they are.
        argv = ["npm", "install", "--no-save", f"{package}@{ranges[0].strip()}"]
    else:  # file:, link:, git: ... : npm resolves it from the manifest
        argv = ["npm", "install"]
    return InstallPlan("node", "npm", package, declared, argv, "package.json", folder)


def _rust_plan(folder: Path, package: str) -> InstallPlan | None:
    manifest = folder / "Cargo.toml"
    if not manifest.is_file():
        return None
    try:
        data = tomllib.loads(read_text(manifest))
    except (OSError, tomllib.TOMLDecodeError):
        data = {}
    declared = any(
        package in data.get(k, {}) or package.replace("-", "_") in data.get(k, {})
        for k in ("dependencies", "dev-dependencies", "build-dependencies")
    )
    argv = ["cargo", "fetch"] if declared else ["cargo", "add", package]
    return InstallPlan("rust", "cargo", package, declared, argv, "Cargo.toml", folder)


def ecosystem_of(source_file: str | None, tool: str | None) -> str | None:
    tool = (tool or "").lower()
    name = source_file or ""
    if name.endswith((".py", ".pyi")) or tool in ("python", "mypy", "pyright", "pytest"):
        return "python"
    if name.endswith((".ts", ".tsx", ".js", ".jsx", ".mjs", ".cjs", ".mts", ".cts")) or tool in (
        "tsc",
        "node",
        "esbuild",
        "vite",
        "webpack",
        "jest",
        "vitest",
    ):
        return "node"
    if name.endswith(".rs") or tool in ("rustc", "cargo"):
        return "rust"
    return None


def install_plan(
    ecosystem: str,
    module: str,
    start: Path,
    root: Path,
    python: str,
    command: list[str] | None = None,
) -> InstallPlan | None:
    """The install for `module`, from the manifest nearest `start` (up to root),
    through the manager `command` (the failing command) ran with when it says."""
    package = package_for(ecosystem, module)
    if package is None:
        return None
    folder = start if start.is_dir() else start.parent
    while True:
        if ecosystem == "python":
            found = _python_plan(folder, package, python, command)
        elif ecosystem == "node":
            found = _node_plan(folder, package, command)
        else:
            found = _rust_plan(folder, package)
        if found is not None:
            return found
        if folder == root or root not in folder.parents:
            return None
        folder = folder.parent
