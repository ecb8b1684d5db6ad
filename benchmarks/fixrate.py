"""How often `faultlens run --recover` fixes a real project broken the way
developers and agents break one (see docs/benchmarks.md, "Fix rate").

    python -m benchmarks.fixrate --src DIR                 # every project found in DIR
    python -m benchmarks.fixrate --src DIR --only python go --typos 8 --drops 5

DIR holds one folder per project (PROJECTS below says where each comes from
and the setup it needs: the tree of a tagged commit, its test runner
installed beside it).  Each breakage is made in a fresh copy: every import
statement of the source modules removed in turn (at most --imports a
project), --typos identifiers (a use of a local, a parameter or a
declaration of the file) misspelt by one edit, --drops statement
terminators or closing brackets removed.  A breakage the bare command does
not notice is left out.  Then `faultlens run --recover -- <the project's own
command>` runs in the copy and the bare command once more, and the case is:

  fixed       the bare command passes afterwards
  candidates  escalated, the box naming candidates ("several ...")
  escalated   escalated with none
  wrong       an edit was kept and the bare command still fails (must be 0)
"""

from __future__ import annotations

import argparse
import ast
import hashlib
import json
import os
import random
import re
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from pathlib import Path

TIMEOUT = 180.0
KINDS = ("import", "typo", "drop")
FAULTLENS = [sys.executable, "-m", "faultlens.cli"]


@dataclass(frozen=True)
class Project:
    eco: str
    name: str
    origin: str  # where the folder comes from, and its setup
    command: tuple[str, ...]
    sources: tuple[str, ...]  # globs of the files broken
    env: tuple[tuple[str, str], ...] = ()
    link: tuple[str, ...] = ()  # folders linked into each copy, not copied


PROJECTS = (
    Project(
        "python",
        "cachetools",
        "github.com/tkem/cachetools at its newest snapshot (git archive HEAD)",
        (sys.executable, "-m", "pytest", "-q", "-x", "-p", "no:cacheprovider", "tests"),
        ("src/cachetools/*.py",),
        (("PYTHONPATH", "src"),),
    ),
    Project(
        "python",
        "toolz",
        "github.com/pytoolz/toolz at its newest snapshot (git archive HEAD); its test of the "
        "installed version deselected (the tree is not installed)",
        (
            sys.executable,
            "-m",
            "pytest",
            "-q",
            "-x",
            "-p",
            "no:cacheprovider",
            "-p",
            "no:asyncio",
            "--deselect",
            "toolz/tests/test_package.py::test_has_version",
            "toolz/tests",
        ),
        ("toolz/*.py",),
    ),
    Project(
        "go",
        "pflag",
        "github.com/spf13/pflag at its newest snapshot",
        ("go", "build", "./..."),
        ("*.go",),
        (("GOFLAGS", "-buildvcs=false"),),
    ),
    Project(
        "javascript",
        "cookiejs",
        "github.com/jshttp/cookie at v0.7.2 (CommonJS), `npm install --no-save mocha@10.2.0 "
        "safe-buffer@5.2.1`",
        ("node_modules/.bin/mocha", "--reporter", "spec", "--bail", "--check-leaks", "test/"),
        ("index.js",),
        link=("node_modules",),
    ),
    Project(
        "typescript",
        "cookiets",
        "src/index.ts of github.com/jshttp/cookie at its newest snapshot, with a strict "
        "nodenext tsconfig.json (noEmit); tsc from `npm install typescript@5` in TOOLS",
        ("{tools}/node_modules/.bin/tsc", "-p", "."),
        ("src/*.ts",),
    ),
    Project(
        "typescript",
        "neverthrow",
        "github.com/supermacro/neverthrow at its newest snapshot (src/, tsconfig.json with "
        "`es2018` and `es2018.asyncgenerator` in its lib for TypeScript 5); tsc as above",
        ("{tools}/node_modules/.bin/tsc", "-p", ".", "--noEmit"),
        ("src/*.ts", "src/_internals/*.ts"),
    ),
    Project(
        "typescript",
        "minipass",
        "src/index.ts of github.com/isaacs/minipass at its newest snapshot, its tsconfig.json "
        "strict, nodenext, noEmit, lib es2022 and esnext.disposable; "
        "`npm install --no-save @types/node@20` in the folder; tsc as above",
        ("{tools}/node_modules/.bin/tsc", "-p", "."),
        ("src/*.ts",),
        link=("node_modules",),
    ),
    Project(
        "rust",
        "itoa",
        "github.com/dtolnay/itoa at its newest snapshot, its optional and dev "
        "dependencies taken out of Cargo.toml (offline) and `[workspace]` added",
        ("cargo", "build", "--offline"),
        ("src/*.rs",),
    ),
    Project(
        "java",
        "jsonjava",
        "github.com/stleary/JSON-java at its newest snapshot; javac of its main sources (JDK 17)",
        ("javac", "-nowarn", "-d", "build/classes", "src/main/java/org/json/*.java"),
        ("src/main/java/org/json/*.java",),
    ),
    Project(
        "csharp",
        "simplejson",
        "github.com/Bunny83/SimpleJSON at its newest snapshot; mcs (Mono 6.8, Debian's mono-mcs) "
        "of its three BCL-only files",
        (
            "mcs",
            "-target:library",
            "-out:SimpleJSON.dll",
            "SimpleJSON.cs",
            "SimpleJSONBinary.cs",
            "SimpleJSONDotNetTypes.cs",
        ),
        ("SimpleJSON.cs", "SimpleJSONBinary.cs", "SimpleJSONDotNetTypes.cs"),
    ),
    Project(
        "c",
        "cJSON",
        "github.com/DaveGamble/cJSON at its newest snapshot; its Makefile's compile of cJSON.c",
        ("gcc", "-std=c89", "-pedantic", "-Wall", "-c", "cJSON.c", "-o", os.devnull),
        ("cJSON.c",),
    ),
)


@dataclass
class Case:
    kind: str
    file: str
    what: str
    text: str  # the broken file


@dataclass
class Tally:
    cases: int = 0
    fixed: int = 0
    candidates: int = 0
    escalated: int = 0
    wrong: int = 0
    unbroken: int = 0
    seconds: list[float] = field(default_factory=list)
    wrong_cases: list[str] = field(default_factory=list)


# -- making the breakages ---------------------------------------------------------------------
_IMPORT_LINE = {
    "go": re.compile(r'^\s*(?:import\s+)?(?:[\w.]+\s+)?"[\w./-]+"\s*$'),
    "javascript": re.compile(r"^\s*(?:const|let|var)\s+[\w{}, ]+=\s*require\(|^\s*import\s"),
    "typescript": re.compile(r"^\s*import\s"),
    "rust": re.compile(r"^\s*(?:pub\s+)?use\s+[^;]+;\s*$"),
    "c": re.compile(r"^\s*#\s*include\s"),
    "java": re.compile(r"^\s*import\s"),
    "csharp": re.compile(r"^\s*using\s+[A-Z][\w.]*\s*;"),
}
# where a JS/TS import that began on an earlier line (`import {` ... `} from './x'`) ends
_IMPORT_END = re.compile(
    r"""(?:\bfrom\s*['"][^'"]+['"]|\brequire\([^)]*\)|^\s*import\s*['"][^'"]+['"])\s*;?\s*$"""
)
_DECLARED = {
    "go": re.compile(
        r"\b([a-z]\w{2,})\s*(?::=|,\s*\w+\s*:=)|\bfunc\s*(?:\([^)]*\)\s*)?\w+\(([^)]*)\)"
    ),
    "javascript": re.compile(r"\b(?:const|let|var)\s+([A-Za-z_]\w{2,})"),
    "typescript": re.compile(r"\b(?:const|let|var)\s+([A-Za-z_]\w{2,})"),
    "rust": re.compile(r"\blet\s+(?:mut\s+)?([a-z_]\w{2,})"),
    "c": re.compile(r"\b(?:int|size_t|char|double|cJSON_bool|unsigned)\s+\*?([a-z_]\w{2,})\s*[=;]"),
    "java": re.compile(
        r"\b(?:int|long|boolean|char|double|String|Object|var)\s+([a-z]\w{2,})\s*[=;:,)]"
    ),
    "csharp": re.compile(
        r"\b(?:int|long|bool|char|double|float|string|object|var)\s+([a-z]\w{2,})\s*[=;:,)]"
    ),
}
_KEYWORDS = frozenset(
    [
        "and",
        "as",
        "assert",
        "async",
        "await",
        "break",
        "case",
        "catch",
        "char",
        "class",
        "const",
        "continue",
        "def",
        "default",
        "del",
        "do",
        "double",
        "elif",
        "else",
        "enum",
        "except",
        "export",
        "extends",
        "false",
        "finally",
        "float",
        "fn",
        "for",
        "from",
        "func",
        "function",
        "go",
        "if",
        "impl",
        "import",
        "in",
        "int",
        "is",
        "let",
        "long",
        "loop",
        "match",
        "mod",
        "mut",
        "new",
        "nil",
        "none",
        "not",
        "null",
        "or",
        "pass",
        "pub",
        "raise",
        "range",
        "return",
        "self",
        "short",
        "static",
        "struct",
        "super",
        "switch",
        "this",
        "throw",
        "true",
        "try",
        "type",
        "typeof",
        "use",
        "var",
        "void",
        "while",
        "with",
        "yield",
    ]
)


def _import_cases(eco: str, rel: str, text: str) -> Iterator[Case]:
    lines = text.splitlines(keepends=True)
    if eco == "python":
        try:
            tree = ast.parse(text)
        except SyntaxError:
            return
        for node in tree.body:
            if (
                isinstance(node, ast.Import | ast.ImportFrom)
                and getattr(node, "module", "") != "__future__"
            ):
                a, b = node.lineno - 1, node.end_lineno or node.lineno
                yield Case("import", rel, lines[a].strip(), "".join(lines[:a] + lines[b:]))
        return
    pattern = _IMPORT_LINE[eco]
    in_block = False
    for i, line in enumerate(lines):
        if eco == "go":  # a spec inside `import ( ... )`, or a one-line `import "x"`
            if re.match(r"^import\s*\($", line.strip()):
                in_block = True
                continue
            if in_block and line.strip() == ")":
                in_block = False
            if not in_block and not line.startswith("import "):
                continue
        if pattern.search(line):
            a = i  # Rust: the item's outer attributes (`#[cfg(...)]`) go with it
            while eco == "rust" and a > 0 and re.match(r"^\s*#\[.*\]\s*$", lines[a - 1]):
                a -= 1
            b = i  # JS/TS: an `import {` names no module: its lines to the `} from '...'`
            several = eco in ("javascript", "typescript") and not re.search(r"['\"]", line)
            while several and b + 1 < len(lines) and not _IMPORT_END.search(lines[b]):
                b += 1
            yield Case("import", rel, line.strip(), "".join(lines[:a] + lines[b + 1 :]))


def _misspell(name: str, rng: random.Random) -> str:
    i = rng.randrange(1, len(name) - 1)
    if rng.random() < 0.5 and name[i] != name[i + 1]:
        return name[:i] + name[i + 1] + name[i] + name[i + 2 :]  # a transposition
    return name[:i] + name[i + 1 :]  # a letter left out


def _python_locals(text: str) -> list[tuple[int, int, str]]:
    """(line, column, name) of each use of a parameter or local after the first."""
    out: list[tuple[int, int, str]] = []
    for fn in ast.walk(ast.parse(text)):
        if not isinstance(fn, ast.FunctionDef | ast.AsyncFunctionDef):
            continue
        params = {a.arg for a in (*fn.args.posonlyargs, *fn.args.args, *fn.args.kwonlyargs)}
        for node in ast.walk(fn):
            used = isinstance(node, ast.Name) and isinstance(node.ctx, ast.Load)
            if used and node.id in params and len(node.id) >= 3 and node.id != "self":
                out.append((node.lineno - 1, node.col_offset, node.id))
    return out


_LITERALS = {
    "javascript": re.compile(r"'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"|`(?:\\.|[^`\\])*`|//.*"),
    "typescript": re.compile(r"'(?:\\.|[^'\\])*'|\"(?:\\.|[^\"\\])*\"|`(?:\\.|[^`\\])*`|//.*"),
    "c": re.compile(r'"(?:\\.|[^"\\])*"|//.*'),
}


def _token_uses(eco: str, text: str) -> list[tuple[int, int, str]]:
    names: set[str] = set()
    for m in _DECLARED[eco].finditer(text):
        for g in m.groups():
            for part in (g or "").split(","):  # a parameter list: `value string, n int`
                words = re.findall(r"\b([a-z_]\w{2,})\b", part)
                names.update(words[:1])
    names -= _KEYWORDS
    out = []
    blank: Callable[[re.Match[str]], str] = lambda m: re.sub(r"[^\n]", " ", m.group(0))  # noqa: E731
    # a use is code: comments (a `/* ... */` over several lines too) and strings are not
    # (JS/TS quote with ' and ` as well; Rust's ' starts a lifetime, C's a character)
    literal = _LITERALS.get(eco, _LITERALS["c"])
    for i, line in enumerate(re.sub(r"/\*.*?\*/", blank, text, flags=re.S).splitlines()):
        code = literal.sub(blank, line)
        for m in re.finditer(r"(?<![\w.$#])([A-Za-z_]\w*)(?![\w(]*\s*:=)", code):
            # JS/TS: `value:` is an object key or a parameter's type, no use of a name
            keyed = eco in ("javascript", "typescript") and re.match(r"\??:(?!:)", code[m.end() :])
            if m.group(1) in names and not keyed:
                out.append((i, m.start(), m.group(1)))
    seen: set[str] = set()
    uses = []
    for where in out:  # a use after the name's first appearance (its declaration)
        if where[2] in seen:
            uses.append(where)
        seen.add(where[2])
    return uses


def _typo_cases(eco: str, rel: str, text: str, rng: random.Random) -> list[Case]:
    try:
        uses = _python_locals(text) if eco == "python" else _token_uses(eco, text)
    except SyntaxError:
        return []
    words = set(re.findall(r"\w+", text))
    lines = text.splitlines(keepends=True)
    out = []
    for line, col, name in uses:
        wrong = _misspell(name, rng)
        if wrong in words or wrong in _KEYWORDS or not wrong.isidentifier():
            continue
        ln = lines[line]
        if ln[col : col + len(name)] != name:
            continue
        broken = [*lines[:line], ln[:col] + wrong + ln[col + len(name) :], *lines[line + 1 :]]
        out.append(Case("typo", rel, f"{rel}:{line + 1} {name} -> {wrong}", "".join(broken)))
    return out


def _drop_cases(eco: str, rel: str, text: str) -> list[Case]:
    ch = ")" if eco in ("python", "go", "javascript", "typescript") else ";"
    lines = text.splitlines(keepends=True)
    out = []
    for i, line in enumerate(lines):
        body = line.rstrip("\r\n")
        if body.rstrip().endswith(ch) and not body.lstrip().startswith(("#", "//", "*", "/*")):
            at = len(body.rstrip()) - 1
            broken = [*lines[:i], body[:at] + body[at + 1 :] + line[len(body) :], *lines[i + 1 :]]
            out.append(Case("drop", rel, f"{rel}:{i + 1} '{ch}' dropped", "".join(broken)))
    return out


def cases(p: Project, root: Path, imports: int, typos: int, drops: int, seed: int) -> list[Case]:
    rng = random.Random(seed)
    files = sorted({f for g in p.sources for f in root.glob(g) if not f.name.endswith("_test.go")})
    found: dict[str, list[Case]] = {k: [] for k in KINDS}
    for f in files:
        rel = f.relative_to(root).as_posix()
        text = f.read_text("utf-8")
        found["import"] += _import_cases(p.eco, rel, text)
        found["typo"] += _typo_cases(p.eco, rel, text, rng)
        found["drop"] += _drop_cases(p.eco, rel, text)
    out: list[Case] = []
    for kind, n in zip(KINDS, (imports, typos, drops), strict=True):
        pool = found[kind]
        out += pool if len(pool) <= n else rng.sample(pool, n)
    return out


# -- running them -----------------------------------------------------------------------------
def _run(argv: list[str], cwd: Path, env: dict[str, str]) -> subprocess.CompletedProcess[str]:
    """`argv` in its own process group, the whole group killed on a timeout."""
    proc = subprocess.Popen(
        argv,
        cwd=cwd,
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
        start_new_session=True,
    )
    try:
        out, err = proc.communicate(timeout=TIMEOUT)
    except subprocess.TimeoutExpired:
        os.killpg(proc.pid, signal.SIGKILL)
        out, err = proc.communicate()
        return subprocess.CompletedProcess(argv, 124, out, err + "\ntimeout")
    return subprocess.CompletedProcess(argv, proc.returncode, out, err)


def _digest(root: Path, files: list[str]) -> str:
    h = hashlib.sha256()
    for f in files:
        h.update((root / f).read_bytes() if (root / f).exists() else b"-")
    return h.hexdigest()


def _copy(src: Path, dst: Path, link: tuple[str, ...]) -> None:
    shutil.copytree(src, dst, symlinks=True, ignore=shutil.ignore_patterns(*link, ".git", "target"))
    for name in link:
        if (src / name).exists():
            os.symlink(src / name, dst / name)


def _expand(root: Path, pattern: str) -> list[str]:
    return sorted(f.relative_to(root).as_posix() for f in root.glob(pattern)) or [pattern]


def run_case(p: Project, src: Path, case: Case, tools: Path, tally: Tally) -> str:
    env = {**os.environ, **dict(p.env), "NO_COLOR": "1"}
    cmd = [a.replace("{tools}", str(tools)) for a in p.command]
    with tempfile.TemporaryDirectory(prefix="faultlens-fixrate-") as tmp:
        work = Path(tmp) / p.name
        _copy(src, work, p.link)
        if p.eco == "rust":
            env["CARGO_TARGET_DIR"] = str(Path(tmp) / "target")
        (work / case.file).write_text(case.text, "utf-8")
        # a `*` argument is the copy's files it names (javac takes no folder), sorted
        cmd = [x for a in cmd for x in (_expand(work, a) if "*" in a else [a])]
        if _run(cmd, work, env).returncode == 0:
            tally.unbroken += 1
            return "unbroken"
        tally.cases += 1
        files = sorted({f.relative_to(work).as_posix() for g in p.sources for f in work.glob(g)})
        before = _digest(work, files)
        start = time.perf_counter()
        fl = [*FAULTLENS, "run", "--recover", "--format", "json", "--workspace", str(work)]
        fl += ["--state-dir", str(Path(tmp) / "state"), "--", *cmd]
        res = _run(fl, work, env)
        tally.seconds.append(time.perf_counter() - start)
        if _run(cmd, work, env).returncode == 0:
            tally.fixed += 1
            return "fixed"
        if _digest(work, files) != before:
            tally.wrong += 1
            tally.wrong_cases.append(case.what)
            return "wrong"
        summary = res.stderr[res.stderr.rfind('\n{"exit_code"') + 1 :]
        try:
            outcomes = json.loads(summary).get("outcomes") or []
        except ValueError:
            outcomes = []
        said = json.dumps(outcomes)
        if "several" in said or "candidates" in said:
            tally.candidates += 1
            return "candidates"
        tally.escalated += 1
        return "escalated"


def _pct(n: int, d: int) -> str:
    return f"{100 * n / d:.0f} %" if d else "-"


def table(results: dict[tuple[str, str], Tally]) -> str:
    rows = [
        "| ecosystem (project) | breakage | cases | fixed and verified | escalated, candidates | "
        "escalated, none | wrong edits kept | left out (not noticed) | median run --recover |",
        "|---|---|---|---|---|---|---|---|---|",
    ]
    for (proj, kind), t in results.items():
        med = sorted(t.seconds)[len(t.seconds) // 2] if t.seconds else 0.0
        rows.append(
            f"| {proj} | {kind} | {t.cases} | {t.fixed} ({_pct(t.fixed, t.cases)}) | "
            f"{t.candidates} | {t.escalated} | {t.wrong} | {t.unbroken} | {med:.1f} s |"
        )
    return "\n".join(rows)


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(description=(__doc__ or "").split("\n\n")[0])
    ap.add_argument("--src", type=Path, required=True, help="folder of the projects' folders")
    ap.add_argument("--tools", type=Path, default=None, help="where tsc is installed (TOOLS)")
    ap.add_argument("--only", nargs="*", default=None, help="ecosystems to run")
    ap.add_argument("--imports", type=int, default=12)
    ap.add_argument("--typos", type=int, default=8)
    ap.add_argument("--drops", type=int, default=4)
    ap.add_argument("--seed", type=int, default=26)
    args = ap.parse_args(argv)
    tools = args.tools or args.src
    results: dict[tuple[str, str], Tally] = {}
    say: Callable[[str], None] = lambda s: print(s, file=sys.stderr, flush=True)  # noqa: E731
    for p in PROJECTS:
        src = args.src / p.name
        if (args.only and p.eco not in args.only) or not src.is_dir():
            continue
        for case in cases(p, src, args.imports, args.typos, args.drops, args.seed):
            tally = results.setdefault((f"{p.eco} ({p.name})", case.kind), Tally())
            say(f"{p.eco:10} {case.kind:6} {run_case(p, src, case, tools, tally):10} {case.what}")
    print(table(results))
    wrong = [w for t in results.values() for w in t.wrong_cases]
    if wrong:
        print("\nwrong edits kept:\n" + "\n".join(f"- {w}" for w in wrong))
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
