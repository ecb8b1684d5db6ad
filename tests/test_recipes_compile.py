"""The compile recipe: imports in the file's own style, the tool's suggestions,
package installs (declared only), hostile values refused, and end to end with
the real tsc, python and go, verified by re-running them."""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

from faultlens.classifier import Options, classify_text
from faultlens.classifier.record import FailureRecord
from faultlens.recipes import CommandStep, Plan, Refusal, Workspace, attempt, plan
from faultlens.recipes.edits import apply_to_text
from faultlens.recipes.fixes import go_imports, py_imports, suggest, ts_imports
from faultlens.recipes.fixes.packages import install_plan, package_for

from .helpers import run_recover_in_process

ROOT = Path(__file__).resolve().parent.parent
# The seed's TS2304 example, as kept in the sample corpus (src/ + tsconfig.json).
SEED_TS = ROOT / "tests/samples/typescript/tsc-plain-ts2304"


def _record(**kw) -> FailureRecord:
    base = dict(
        failure_type="compile",
        severity="blocking",
        signal=kw.get("message", "error"),
        auto_recoverable=True,
        recipe="recipes/compile.md",
        id="rec1",
    )
    base.update(kw)
    return FailureRecord(**base)


# -- TypeScript imports -------------------------------------------------------------------------
def _ts_fix(text: str, name="UserProfile", spec="../models/user") -> str:
    style = ts_imports.detect_style(text)
    return apply_to_text(text, [ts_imports.import_edit("f.ts", text, name, spec, style)])


def test_ts_import_follows_the_files_quotes_and_semicolons():
    text = 'import { a } from "./a"\nimport b from "./b"\n\nconst x = 1\n'
    assert _ts_fix(text).splitlines()[2] == 'import { UserProfile } from "../models/user"'


def test_ts_import_goes_after_a_multi_line_import():
    text = "import {\n  a,\n  b,\n} from './ab';\n\nexport const x: UserProfile = a;\n"
    out = _ts_fix(text).splitlines()
    assert out[4] == "import { UserProfile } from '../models/user';"
    assert out[5] == ""


def test_ts_import_merges_into_an_existing_import_of_the_same_module():
    text = "import { Role } from '../models/user';\nlet u: UserProfile;\n"
    assert _ts_fix(text).splitlines()[0] == "import { Role, UserProfile } from '../models/user';"


def test_ts_specifier_is_relative_and_keeps_js_extensions(tmp_path):
    src = tmp_path / "src" / "auth" / "middleware.ts"
    target = tmp_path / "src" / "models" / "user.ts"
    style = ts_imports.ImportStyle()
    assert ts_imports.specifier(src, target, style) == "../models/user"
    style.js_extension = True
    assert ts_imports.specifier(src, target, style) == "../models/user.js"
    assert ts_imports.specifier(src, tmp_path / "src" / "auth" / "index.ts", style) == "."


def test_ts_exporters_skip_node_modules_and_the_file_itself(tmp_path):
    (tmp_path / "node_modules" / "x").mkdir(parents=True)
    (tmp_path / "node_modules" / "x" / "index.ts").write_text("export class Thing {}\n")
    (tmp_path / "a.ts").write_text("export const Thing = 1;\n")
    (tmp_path / "b.ts").write_text("const y = Thing;\n")
    (tmp_path / "c.ts").write_text("const Thing = 2;\nexport { Thing };\n")
    found = ts_imports.find_exporters(tmp_path, "Thing", exclude=tmp_path / "b.ts")
    assert sorted(p.name for p in found) == ["a.ts", "c.ts"]


def test_an_ambiguous_name_is_not_guessed(tmp_path):
    (tmp_path / "a.ts").write_text("export interface Thing {}\n")
    (tmp_path / "b.ts").write_text("export interface Thing {}\n")
    (tmp_path / "use.ts").write_text("let t: Thing;\n")
    (rec,) = classify_text("use.ts(1,8): error TS2304: Cannot find name 'Thing'.\n")
    result = plan(rec, Workspace.at(tmp_path))
    assert isinstance(result, Refusal)
    assert "several modules" in result.reason


# -- Python imports ---------------------------------------------------------------------------------
def _pkg(tmp_path: Path) -> Path:
    pkg = tmp_path / "app"
    (pkg / "core").mkdir(parents=True)
    for d in (pkg, pkg / "core"):
        (d / "__init__.py").write_text("")
    (pkg / "core" / "money.py").write_text("class Money:\n    pass\n")
    return pkg


def test_python_import_is_absolute_by_default(tmp_path):
    pkg = _pkg(tmp_path)
    src = pkg / "cart.py"
    text = '"""Doc."""\n\nimport os\nfrom typing import Any\n\nx = Money()\n'
    line = py_imports.import_line_for(src, pkg / "core" / "money.py", tmp_path, "Money", text)
    assert line == "from app.core.money import Money"
    out = apply_to_text(text, [py_imports.import_edit("app/cart.py", text, line)])
    assert out.splitlines()[4] == "from app.core.money import Money"
    assert out.splitlines()[5] == ""


def test_python_import_is_relative_when_the_file_uses_relative_imports(tmp_path):
    pkg = _pkg(tmp_path)
    text = "from . import core\n\nx = Money()\n"
    line = py_imports.import_line_for(
        pkg / "cart.py", pkg / "core" / "money.py", tmp_path, "Money", text
    )
    assert line == "from .core.money import Money"
    deep = "from ..core import money\n"
    (pkg / "web").mkdir()
    (pkg / "web" / "__init__.py").write_text("")
    line = py_imports.import_line_for(
        pkg / "web" / "v.py", pkg / "core" / "money.py", tmp_path, "Money", deep
    )
    assert line == "from ..core.money import Money"


def test_python_import_merges_into_the_same_from_line():
    text = "from app.money import Cents\n\nx = Money()\n"
    out = apply_to_text(text, [py_imports.import_edit("a.py", text, "from app.money import Money")])
    assert out.splitlines()[0] == "from app.money import Cents, Money"


def test_python_import_in_a_file_without_imports_goes_after_the_docstring():
    text = '"""A module\nwith a docstring."""\nx = Money()\n'
    out = apply_to_text(text, [py_imports.import_edit("a.py", text, "from m import Money")])
    assert out == '"""A module\nwith a docstring."""\n\nfrom m import Money\n\nx = Money()\n'


# -- Go imports ----------------------------------------------------------------------------------
@pytest.mark.parametrize(
    ("before", "after"),
    [
        (
            'package main\n\nimport "fmt"\n\nfunc main() {}\n',
            'package main\n\nimport (\n\t"fmt"\n\t"strings"\n)\n\nfunc main() {}\n',
        ),
        (
            'package main\n\nimport (\n\t"fmt"\n\t"os"\n\n\t"example.com/x"\n)\n',
            'package main\n\nimport (\n\t"fmt"\n\t"os"\n\t"strings"\n\n\t"example.com/x"\n)\n',
        ),
        (
            "package main\n\nfunc main() {}\n",
            'package main\n\nimport "strings"\n\nfunc main() {}\n',
        ),
    ],
)
def test_go_import_keeps_gofmt_layout(before, after):
    edit = go_imports.import_edit("main.go", before, "strings")
    assert edit is not None
    assert apply_to_text(before, [edit]) == after


def test_go_import_already_present_gives_no_edit():
    assert go_imports.import_edit("m.go", 'package m\n\nimport "strings"\n', "strings") is None


def test_go_std_lookup_maps_last_element_to_path():
    assert go_imports.std_path_for("filepath") == ["path/filepath"]
    assert go_imports.std_path_for("Strings") == []
    assert go_imports.std_path_for("strings; rm") == []


# -- the tool's suggestions --------------------------------------------------------------------------
def test_did_you_mean_replaces_the_name_at_the_reported_column():
    text = "const a = 1;\nconsole.log(usrName + usrName2);\n"
    edit = suggest.replace_name("f.ts", text, 2, 13, "usrName", "userName")
    assert edit is not None
    assert apply_to_text(text, [edit]).splitlines()[1] == "console.log(userName + usrName2);"


def test_a_suggestion_that_is_not_an_identifier_is_refused():
    assert suggest.replace_name("f.ts", "x\n", 1, 1, "x", "x; require('child_process')") is None


def test_machine_applicable_rustc_spans_become_edits():
    sugg = [
        {
            "file_name": "src/main.rs",
            "line_start": 2,
            "column_start": 5,
            "line_end": 2,
            "column_end": 8,
            "suggested_replacement": "vec",
            "applicability": "MachineApplicable",
        }
    ]
    edits = suggest.structured_edits(sugg, None, lambda p: p)
    assert edits is not None
    assert (
        apply_to_text("fn main() {\n    vex![1];\n}\n", edits) == "fn main() {\n    vec![1];\n}\n"
    )
    sugg[0]["applicability"] = "MaybeIncorrect"
    assert suggest.structured_edits(sugg, None, lambda p: p) is None


def test_rust_use_and_c_include_hints_are_inserted_after_their_kin():
    rs = "use std::fmt;\n\nfn main() { let m: HashMap<u8, u8>; }\n"
    edit = suggest.rust_use_edit("m.rs", rs, "use std::collections::HashMap;")
    assert edit is not None
    assert apply_to_text(rs, [edit]).splitlines()[1] == "use std::collections::HashMap;"
    c = '#include <stdlib.h>\n\nint main(void) { printf("x"); }\n'
    edit = suggest.include_edit("m.c", c, "<stdio.h>")
    assert edit is not None
    assert apply_to_text(c, [edit]).splitlines()[1] == "#include <stdio.h>"
    assert suggest.include_edit("m.c", c, "<stdio.h>\n#include </etc/passwd>") is None


# -- packages -------------------------------------------------------------------------------------
def test_package_names_come_from_a_curated_map_and_are_validated():
    assert package_for("python", "yaml") == "PyYAML"
    assert package_for("python", "requests.adapters") == "requests"
    assert package_for("node", "@scope/pkg/sub/path") == "@scope/pkg"
    assert package_for("node", "fs") is None
    assert package_for("node", "./local") is None
    assert package_for("rust", "std") is None
    for hostile in (
        "--index-url=http://evil",
        "a b",
        "$(touch pwned)",
        "x;rm",
        "-e.",
        "..",
        "café",
    ):
        assert package_for("python", hostile) is None, hostile
        assert package_for("node", hostile) is None, hostile


@pytest.mark.parametrize(
    ("files", "declared", "argv"),
    [
        (
            {
                "uv.lock": "",
                "pyproject.toml": '[project]\nname="p"\ndependencies=["requests>=2"]\n',
            },
            True,
            ["uv", "sync", "--frozen", "--inexact"],
        ),
        (
            {"uv.lock": "", "pyproject.toml": '[project]\nname="p"\n'},
            False,
            ["uv", "add", "requests"],
        ),
        (
            {"poetry.lock": "", "pyproject.toml": "[tool.poetry.dependencies]\nrequests='*'\n"},
            True,
            ["poetry", "install"],
        ),
        (
            {"requirements.txt": "# deps\nRequests==2.0\n"},
            True,
            ["PY", "-m", "pip", "install", "requests==2.0"],
        ),
    ],
)
def test_python_install_uses_the_projects_manager(tmp_path, files, declared, argv):
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    inst = install_plan("python", "requests", tmp_path, tmp_path, "PY")
    assert inst is not None
    assert (inst.declared, inst.argv) == (declared, argv)


@pytest.mark.parametrize(
    ("lock", "argv"),
    [
        ("pnpm-lock.yaml", ["pnpm", "add", "lodash"]),
        ("yarn.lock", ["yarn", "add", "lodash"]),
        (None, ["npm", "install", "lodash"]),
    ],
)
def test_node_install_uses_the_projects_manager(tmp_path, lock, argv):
    (tmp_path / "package.json").write_text('{"dependencies": {"left-pad": "1"}}')
    if lock:
        (tmp_path / lock).write_text("")
    inst = install_plan("node", "lodash", tmp_path, tmp_path, "py")
    assert inst is not None and not inst.declared and inst.argv == argv


@pytest.mark.parametrize(
    ("command", "files", "argv"),
    [
        (
            ["uv", "run", "pytest"],
            {
                "uv.lock": "",
                "poetry.lock": "",
                "pyproject.toml": '[project]\ndependencies=["requests"]\n',
            },
            ["uv", "sync", "--frozen", "--inexact"],
        ),
        (
            ["poetry", "run", "pytest"],
            {
                "uv.lock": "",
                "poetry.lock": "",
                "pyproject.toml": '[project]\ndependencies=["requests"]\n',
            },
            ["poetry", "install"],
        ),
        (
            ["VENV/bin/python", "-m", "pytest"],
            {"requirements.txt": "requests>=2.31,<3  # http\nflask==3.0\n"},
            ["VENV/bin/python", "-m", "pip", "install", "requests>=2.31,<3"],
        ),
    ],
)
def test_python_install_uses_the_failing_commands_manager_and_pins_nothing_else(
    tmp_path, command, files, argv
):
    (tmp_path / "venv" / "bin").mkdir(parents=True)
    (tmp_path / "venv" / "pyvenv.cfg").write_text("home = /usr/bin\n")
    venv_python = str(tmp_path / "venv" / "bin" / "python")
    command = [venv_python if c == "VENV/bin/python" else c for c in command]
    argv = [venv_python if c == "VENV/bin/python" else c for c in argv]
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    inst = install_plan("python", "requests", tmp_path, tmp_path, "PY", command)
    assert inst is not None and inst.declared
    assert inst.argv == argv


@pytest.mark.parametrize(
    ("command", "files", "argv"),
    [
        (
            ["npm", "test"],
            {"pnpm-lock.yaml": ""},
            ["npm", "install", "--no-save", "lodash@^4.17.0"],
        ),
        (
            ["pnpm", "test"],
            {"yarn.lock": "", "pnpm-lock.yaml": ""},
            ["pnpm", "install", "--frozen-lockfile"],
        ),
        (
            ["yarn", "test"],
            {"yarn.lock": "", ".yarnrc.yml": ""},
            ["yarn", "install", "--immutable"],
        ),
    ],
)
def test_node_install_uses_the_failing_commands_manager_and_pins_nothing_else(
    tmp_path, command, files, argv
):
    (tmp_path / "package.json").write_text('{"dependencies": {"lodash": "^4.17.0"}}')
    for name, text in files.items():
        (tmp_path / name).write_text(text)
    inst = install_plan("node", "lodash", tmp_path, tmp_path, "py", command)
    assert inst is not None and inst.declared and inst.argv == argv


def test_an_undeclared_package_is_only_suggested_never_installed(tmp_path):
    (tmp_path / "requirements.txt").write_text("flask\n")
    (tmp_path / "main.py").write_text("import requests\n")
    rec = _record(
        message="ModuleNotFoundError: No module named 'requests'",
        source_file="main.py",
        source_line=1,
        tool="python",
        hint={"module": "requests"},
    )
    result = plan(rec, Workspace.at(tmp_path))
    assert isinstance(result, Refusal)
    assert "not declared" in result.reason
    assert any("pip install requests" in s for s in result.suggestions)


def test_a_declared_package_gets_an_install_command_step(tmp_path):
    (tmp_path / "requirements.txt").write_text("requests>=2\n")
    (tmp_path / "main.py").write_text("import requests\n")
    rec = _record(
        message="ModuleNotFoundError: No module named 'requests'",
        source_file="main.py",
        source_line=1,
        tool="python",
        hint={"module": "requests", "command": ["python3", "main.py"]},
    )
    result = plan(rec, Workspace.at(tmp_path))
    assert isinstance(result, Plan)
    (step,) = result.commands
    assert isinstance(step, CommandStep)
    assert step.argv[1:] == ["-m", "pip", "install", "requests>=2"]  # as declared
    assert result.verify is not None and result.verify.argv == ["python3", "main.py"]


def test_hostile_values_from_output_never_reach_a_command_or_a_file(tmp_path, monkeypatch):
    """A hostile package name and a hostile path: no command runs, nothing is written."""
    import faultlens.recipes.runner as runner

    ran: list[list[str]] = []
    real = runner.stream_process

    def spy(argv, **kw):
        ran.append(list(argv))
        return real(argv, **kw)

    monkeypatch.setattr(runner, "stream_process", spy)
    (tmp_path / "requirements.txt").write_text("requests\n")
    (tmp_path / "main.py").write_text("x = 1\n")
    sentinel = tmp_path / "pwned"
    ws = Workspace.at(tmp_path)
    hostile = [
        _record(
            id="h1",
            source_file="main.py",
            source_line=1,
            tool="python",
            message=f"No module named '$(touch {sentinel})'",
            hint={"module": f"$(touch {sentinel})"},
        ),
        _record(
            id="h2",
            source_file="main.py",
            source_line=1,
            tool="python",
            message="No module named '--index-url=http://evil.invalid/simple'",
            hint={"module": "--index-url=http://evil.invalid/simple"},
        ),
        _record(
            id="h3",
            source_file="../../etc/passwd",
            source_line=1,
            tool="python",
            message="NameError: name 'root' is not defined",
            hint={"name": "root"},
        ),
        _record(
            id="h4",
            source_file="/etc/passwd",
            source_line=1,
            tool="tsc",
            message="Cannot find name 'x'. Did you mean 'x; touch pwned'?",
            hint={"name": "x", "suggestion": f"x; touch {sentinel}"},
        ),
    ]
    for rec in hostile:
        out = attempt(rec, ws)
        assert out.result == "escalated", rec.id
    assert ran == []
    assert not sentinel.exists()
    assert (tmp_path / "main.py").read_text() == "x = 1\n"


# -- end to end with the real tools ---------------------------------------------------------------
def _tool(name: str) -> str | None:
    local = ROOT / "tools" / "node" / "node_modules" / ".bin" / name
    return str(local) if local.exists() else shutil.which(name)


def _run(cmd: list[str], cwd: Path, task: str = "TASK-E2E"):
    return run_recover_in_process(cmd, cwd, task)


@pytest.mark.real_tool
def test_tsc_seed_example_ts2304_is_fixed_with_an_import_and_verified(tmp_path):
    tsc = _tool("tsc")
    if tsc is None:
        pytest.skip("tsc not installed (scripts/install-tools.sh node)")
    if not SEED_TS.is_dir():
        pytest.skip(f"seed example missing: {SEED_TS}")
    proj = tmp_path / "seed"
    shutil.copytree(SEED_TS, proj, ignore=shutil.ignore_patterns("*.txt"))
    report, _ = _run([tsc, "-p", "."], proj)
    (rec,) = report.records
    assert (rec.code, rec.source_file, rec.source_line) == ("TS2304", "src/auth/middleware.ts", 42)
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    assert outcome.tried == "Import UserProfile from '../models/user'"
    lines = (proj / "src/auth/middleware.ts").read_text().splitlines()
    assert lines[0] == "import type { Request, Response, NextFunction } from './http';"
    assert lines[1] == "import { UserProfile } from '../models/user';"
    assert outcome.exit_code == 0  # the verifying re-run of tsc passed
    assert report.exit_code == 0


@pytest.mark.real_tool
def test_python_name_error_is_fixed_with_a_relative_import_and_verified(tmp_path):
    pkg = tmp_path / "tool"
    pkg.mkdir()
    (pkg / "__init__.py").write_text("")
    (pkg / "config.py").write_text("DEFAULT_NAME = 'World Wide'\n")
    (pkg / "text.py").write_text(
        "def slugify(s: str) -> str:\n    return s.lower().replace(' ', '-')\n"
    )
    (pkg / "main.py").write_text(
        '"""Entry point."""\n\nfrom .config import DEFAULT_NAME\n\n\ndef main() -> None:\n'
        "    print(slugify(DEFAULT_NAME))\n\n\nif __name__ == '__main__':\n    main()\n"
    )
    report, _ = _run([sys.executable, "-m", "tool.main"], tmp_path)
    (rec,) = report.records
    assert rec.failure_type.value == "compile"
    assert rec.source_file == "tool/main.py"
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    assert "from .text import slugify" in (pkg / "main.py").read_text().splitlines()
    assert report.exit_code == 0
    done = subprocess.run(
        [sys.executable, "-m", "tool.main"], cwd=tmp_path, capture_output=True, text=True
    )
    assert done.stdout.strip() == "world-wide"


@pytest.mark.real_tool
def test_go_undefined_package_is_added_to_the_imports_and_verified(tmp_path):
    go = shutil.which("go")
    if go is None:
        pytest.skip("go not installed (scripts/install-tools.sh debian)")
    (tmp_path / "go.mod").write_text("module example.com/demo\n\ngo 1.19\n")
    (tmp_path / "main.go").write_text(
        'package main\n\nimport "fmt"\n\nfunc main() {\n\tfmt.Println(strings.ToUpper("ok"))\n}\n'
    )
    env = {**os.environ, "GOFLAGS": "-mod=mod", "GOCACHE": str(tmp_path / ".gocache")}
    cmd = [go, "build", "-o", os.devnull, "./..."]
    first = subprocess.run(cmd, cwd=tmp_path, capture_output=True, text=True, env=env)
    assert first.returncode != 0 and "undefined: strings" in first.stderr
    records = classify_text(first.stderr, Options(cwd=str(tmp_path), command=cmd))
    rec = next((r for r in records if "undefined: strings" in r.signal), None)
    if rec is None or rec.source_file != "main.go":
        # No go rule registered yet: the record as the go rule reports it.
        rec = _record(
            signal="./main.go:6:14: undefined: strings",
            message="undefined: strings",
            source_file="main.go",
            source_line=6,
            source_column=14,
            tool="go",
            id="go1",
        )
    ws = Workspace.at(
        tmp_path,
        settings=__import__("faultlens.recipes", fromlist=["x"]).RecipeSettings(
            env={"GOCACHE": env["GOCACHE"]}
        ),
    )
    outcome = attempt(rec, ws, command=cmd)
    assert outcome.result == "recovered", outcome.reason
    assert outcome.tried == 'Import "strings"'
    assert outcome.exit_code == 0
    assert '\t"strings"' in (tmp_path / "main.go").read_text()
    assert subprocess.run(cmd, cwd=tmp_path, capture_output=True, env=env).returncode == 0


@pytest.mark.real_tool
def test_gcc_fix_it_adds_the_missing_include_and_is_verified(tmp_path):
    gxx = shutil.which("g++")
    if gxx is None:
        pytest.skip("g++ not installed")
    (tmp_path / "m.cpp").write_text('int main() {\n    std::cout << "hi";\n    return 0;\n}\n')
    report, _ = _run(
        [gxx, "-fdiagnostics-parseable-fixits", "-c", "m.cpp", "-o", os.devnull], tmp_path
    )
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    assert outcome.tried == "Apply the compiler's fix-it (#include <iostream>)"
    text = (tmp_path / "m.cpp").read_text()
    assert text.startswith("#include <iostream>\nint main() {")
    assert text.count("#include") == 1  # the `+++ |+` line and the fix-it are one edit
    assert report.exit_code == 0


@pytest.mark.real_tool
@pytest.mark.parametrize("json_format", [False, True])
def test_rustc_consider_importing_adds_the_use_and_is_verified(tmp_path, json_format):
    cargo = shutil.which("cargo")
    if cargo is None:
        pytest.skip("cargo not installed")
    (tmp_path / "src").mkdir()
    (tmp_path / "Cargo.toml").write_text(
        '[package]\nname = "demo"\nversion = "0.1.0"\nedition = "2021"\n'
    )
    (tmp_path / "src" / "main.rs").write_text(
        'fn main() {\n    let mut m = HashMap::new();\n    m.insert(1, 2);\n    println!("{:?}", m);\n}\n'
    )
    cmd = [cargo, "build", "--quiet", *(["--message-format=json"] if json_format else [])]
    report, _ = _run(cmd, tmp_path)
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    assert outcome.tried == "Add `use std::collections::HashMap;`"
    assert (
        (tmp_path / "src/main.rs")
        .read_text()
        .startswith("use std::collections::HashMap;\nfn main()")
    )
    assert report.exit_code == 0


@pytest.mark.real_tool
def test_python_did_you_mean_is_applied_and_verified(tmp_path):
    (tmp_path / "calc.py").write_text(
        "def average(values):\n    total = sum(values)\n    return totl / len(values)\n\n\n"
        "print(average([1, 2, 3]))\n"
    )
    report, _ = _run([sys.executable, "calc.py"], tmp_path)
    (outcome,) = report.outcomes
    assert outcome.result == "recovered", outcome.reason
    assert outcome.tried == "Change 'totl' to 'total'"
    assert "    return total / len(values)\n" in (tmp_path / "calc.py").read_text()
    assert report.exit_code == 0


@pytest.mark.real_tool
def test_tsc_dropped_parenthesis_is_closed_where_typescripts_parser_agrees(tmp_path):
    tsc = _tool("tsc")
    if tsc is None:
        pytest.skip("tsc not installed (scripts/install-tools.sh node)")
    (tmp_path / ".git").mkdir()
    (tmp_path / "tsconfig.json").write_text(
        '{"compilerOptions": {"strict": true, "noEmit": true, "types": []}, "include": ["*.ts"]}\n'
    )
    (tmp_path / "p.ts").write_text(
        "export function level(p: unknown): string | undefined {\n  const v =\n"
        '    typeof p === "string"\n      ? p.toLowerCase(\n      : undefined;\n  return v;\n}\n'
    )
    report, _ = _run([tsc, "-p", "."], tmp_path)
    assert report.outcomes and report.outcomes[0].result == "recovered", report.outcomes
    assert "      ? p.toLowerCase()\n" in (tmp_path / "p.ts").read_text()
