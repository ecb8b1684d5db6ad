"""How the code is layered, read off its imports (static: every `import` in a
module, the ones inside functions too, but not those under `if TYPE_CHECKING`).

* No import cycles between modules: a lazy import inside a function that
  closes a cycle is still a cycle of design, and is reported.
* pygls and lsprotocol appear only in server/: the classifier, the recipes, the
  CLI and the agent interfaces know nothing of LSP (PRODUCT.md).
* The MCP SDK appears only in agents/mcp_server.py (and the mcp_startup
  recipe's probe, which talks to other servers).
"""

from __future__ import annotations

import ast
import functools
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
PACKAGES = ("agents", "classifier", "cli", "recipes", "remote", "server")

# Known cycles still to take apart: (module set, why it is allowed for now).
KNOWN_CYCLES: dict[frozenset[str], str] = {}


@functools.cache
def _modules() -> dict[str, Path]:
    mods: dict[str, Path] = {}
    for pkg in PACKAGES:
        for f in (ROOT / pkg).rglob("*.py"):
            parts = f.relative_to(ROOT).with_suffix("").parts
            name = ".".join(("faultlens", *parts))
            mods[name.removesuffix(".__init__")] = f
    return mods


@functools.cache
def _imports(name: str, path: Path) -> frozenset[str]:
    """Every module `name` imports (absolute names), TYPE_CHECKING blocks left out."""
    tree = ast.parse(path.read_text("utf-8"))
    package = name.split(".") if path.name == "__init__.py" else name.split(".")[:-1]
    found: set[str] = set()

    class Visitor(ast.NodeVisitor):
        def visit_If(self, node: ast.If) -> None:
            if "TYPE_CHECKING" in ast.unparse(node.test):
                for child in node.orelse:
                    self.visit(child)
                return
            self.generic_visit(node)

        def visit_Import(self, node: ast.Import) -> None:
            found.update(a.name for a in node.names)

        def visit_ImportFrom(self, node: ast.ImportFrom) -> None:
            if node.level:
                base = package[: len(package) - node.level + 1]
                module = ".".join([*base, *([node.module] if node.module else [])])
            else:
                module = node.module or ""
            found.add(module)
            found.update(f"{module}.{a.name}" for a in node.names)

    Visitor().visit(tree)
    return frozenset(found)


@functools.cache
def _graph() -> dict[str, set[str]]:
    mods = _modules()
    return {n: {d for d in _imports(n, p) if d in mods and d != n} for n, p in mods.items()}


def _cycles(graph: dict[str, set[str]]) -> list[frozenset[str]]:
    """The strongly connected components of more than one module (Tarjan)."""
    index: dict[str, int] = {}
    low: dict[str, int] = {}
    stack: list[str] = []
    on: set[str] = set()
    out: list[frozenset[str]] = []
    counter = 0

    def visit(v: str) -> None:
        nonlocal counter
        index[v] = low[v] = counter
        counter += 1
        stack.append(v)
        on.add(v)
        for w in sorted(graph[v]):
            if w not in index:
                visit(w)
                low[v] = min(low[v], low[w])
            elif w in on:
                low[v] = min(low[v], index[w])
        if low[v] == index[v]:
            comp = set()
            while True:
                w = stack.pop()
                on.discard(w)
                comp.add(w)
                if w == v:
                    break
            if len(comp) > 1:
                out.append(frozenset(comp))

    for v in sorted(graph):
        if v not in index:
            visit(v)
    return out


def test_no_module_imports_itself_back_through_others() -> None:
    cycles = [c for c in _cycles(_graph()) if c not in KNOWN_CYCLES]
    assert not cycles, [sorted(c) for c in cycles]


def test_the_known_cycles_are_still_there_or_are_taken_off_the_list() -> None:
    found = set(_cycles(_graph()))
    stale = [sorted(c) for c in KNOWN_CYCLES if c not in found]
    assert not stale, f"gone: remove from KNOWN_CYCLES: {stale}"


def test_lsp_libraries_appear_only_in_the_server() -> None:
    mods = _modules()
    offenders = sorted(
        n
        for n, p in mods.items()
        if not n.startswith("faultlens.server")
        and any(d.split(".")[0] in ("pygls", "lsprotocol") for d in _imports(n, p))
    )
    assert not offenders, offenders


def test_the_mcp_sdk_appears_only_in_the_mcp_server_and_the_mcp_probe() -> None:
    mods = _modules()
    # mcp_stdio: the MCP server's stdio transport (JSON-RPC's error answers)
    allowed = {
        "faultlens.agents.mcp_server",
        "faultlens.agents.mcp_stdio",
        "faultlens.recipes.fixes.mcp_probe",
    }
    offenders = sorted(
        n
        for n, p in mods.items()
        if n not in allowed and any(d == "mcp" or d.startswith("mcp.") for d in _imports(n, p))
    )
    assert not offenders, offenders


# The layers, lowest first: a package imports only from its own layer or below
# (classifier <- recipes, remote <- server, cli, agents; remote, the CI
# services' APIs, uses the recipes' git and process runner).  The fronts over
# the recipes are the CLI, the language server and the agents' interfaces; the CLI starts
# the other two (`faultlens serve`, `mcp`, `hook`), but neither the server nor the
# agents import another front, and the CLI's own commands none.
LAYERS = {"classifier": 0, "recipes": 1, "remote": 1, "server": 2, "cli": 2, "agents": 2}


def _package(module: str) -> str:
    return module.split(".")[1]


def test_each_package_imports_only_its_own_layer_or_those_below() -> None:
    offenders = sorted(
        f"{n} -> {d}"
        for n, deps in _graph().items()
        for d in deps
        if LAYERS[_package(d)] > LAYERS[_package(n)]
    )
    assert not offenders, offenders


def test_the_server_and_the_agents_import_no_other_front() -> None:
    offenders = sorted(
        f"{n} -> {d}"
        for n, deps in _graph().items()
        if _package(n) in ("server", "agents")
        for d in deps
        if LAYERS[_package(d)] == 2 and _package(d) != _package(n)
    )
    assert not offenders, offenders


# The CLI's commands that start another front (and only those) import it.
STARTERS = {"faultlens.cli.serve", "faultlens.cli.mcp", "faultlens.cli.hook"}


def test_the_cli_imports_another_front_only_to_start_it() -> None:
    offenders = sorted(
        f"{n} -> {d}"
        for n, deps in _graph().items()
        if _package(n) == "cli" and n not in STARTERS
        for d in deps
        if _package(d) in ("server", "agents")
    )
    assert not offenders, offenders


def test_no_two_packages_define_a_public_class_of_the_same_name() -> None:
    """A name says what is inside: `Entry`, `RunReport` or `CIJob` in two
    packages are two things a reader (and a grep) takes for one."""
    where: dict[str, set[str]] = {}
    for name, path in _modules().items():
        for node in ast.parse(path.read_text(encoding="utf-8")).body:
            if isinstance(node, ast.ClassDef) and not node.name.startswith("_"):
                where.setdefault(node.name, set()).add(_package(name))
    shared = sorted(f"{c}: {sorted(p)}" for c, p in where.items() if len(p) > 1)
    assert not shared, shared
