"""Put faultlens and its dependencies inside the VS Code extension, for one platform.

    python3 scripts/bundle_vscode.py --target linux-x64 [--wheel dist/faultlens-*.whl]
    python3 scripts/bundle_vscode.py --target linux-x64 --package   # and build the .vsix

The wheels come from the registry (PyPI), for the target platform and for each
CPython the extension supports (3.11 to 3.14); a Python version without wheels
for every compiled dependency is left out and said so.  They are unpacked into
editors/vscode/bundled/libs/:

    common/   the pure-Python packages (faultlens itself, pygls, lsprotocol, ...)
    cp311/    the compiled ones for CPython 3.11 (pydantic-core, ahocorasick-rs, ...)
    cp312/ ...
    BUNDLE.json   what is there: target, versions, packages

bundled/tool/launch.py (committed) runs the server from there on the user's
own interpreter.  With --package, `vsce package --target T` then writes
dist/faultlens-<version>@<target>.vsix.
"""

from __future__ import annotations

import argparse
import json
import shutil
import subprocess
import sys
import tempfile
import tomllib
import zipfile
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
EXTENSION = ROOT / "editors" / "vscode"
LIBS = EXTENSION / "bundled" / "libs"
PYTHONS = ("3.11", "3.12", "3.13", "3.14")

# VS Code's platform names, and the wheel platform tags pip may pick for each
# (pip also accepts the older manylinux / macOS releases of a tag it is given).
TARGETS: dict[str, tuple[str, ...]] = {
    "linux-x64": ("manylinux_2_28_x86_64", "manylinux_2_17_x86_64", "manylinux2014_x86_64"),
    "linux-arm64": ("manylinux_2_28_aarch64", "manylinux_2_17_aarch64", "manylinux2014_aarch64"),
    "darwin-x64": ("macosx_11_0_x86_64", "macosx_10_12_x86_64", "macosx_10_9_universal2"),
    "darwin-arm64": ("macosx_11_0_arm64", "macosx_10_9_universal2", "macosx_11_0_universal2"),
    "win32-x64": ("win_amd64",),
}


def version() -> str:
    data = tomllib.loads((ROOT / "pyproject.toml").read_text("utf-8"))
    return str(data["project"]["version"])


def build_wheel(out: Path) -> Path:
    subprocess.run(
        [sys.executable, "-m", "build", "--wheel", "--outdir", str(out), str(ROOT)],
        check=True,
        capture_output=True,
    )
    (wheel,) = out.glob("faultlens-*.whl")
    return wheel


def download(wheel: Path, target: str, python: str, dest: Path) -> list[Path] | None:
    """The wheels of faultlens and every dependency for (target, python), or None
    when the registry lacks one of them."""
    cmd = [
        sys.executable,
        "-m",
        "pip",
        "download",
        "--quiet",
        "--disable-pip-version-check",
        "--dest",
        str(dest),
        "--only-binary=:all:",
        "--implementation",
        "cp",
        "--python-version",
        python,
    ]
    for tag in TARGETS[target]:
        cmd += ["--platform", tag]
    done = subprocess.run([*cmd, str(wheel)], capture_output=True, text=True)
    if done.returncode != 0:
        last = (done.stderr.strip().splitlines() or ["pip download failed"])[-1]
        print(f"bundle: Python {python} on {target} left out: {last}", file=sys.stderr)
        return None
    return sorted(dest.glob("*.whl"))


def pure(wheel: Path) -> bool:
    return wheel.name.endswith("-none-any.whl")


def unpack(wheel: Path, into: Path) -> None:
    """A wheel's files as an installer lays them out in site-packages (scripts left out)."""
    with zipfile.ZipFile(wheel) as z:
        for info in z.infolist():
            parts = info.filename.split("/")
            if len(parts) > 2 and parts[0].endswith(".data"):
                if parts[1] not in ("purelib", "platlib"):
                    continue  # scripts, headers, data: not importable
                parts = parts[2:]
            if info.is_dir() or ".." in parts:
                continue
            out = into.joinpath(*parts)
            out.parent.mkdir(parents=True, exist_ok=True)
            with z.open(info) as src, open(out, "wb") as dst:
                shutil.copyfileobj(src, dst)


def dist_name(wheel: Path) -> str:
    return wheel.name.split("-")[0].lower().replace("_", "-")


def bundle(target: str, wheel: Path, pythons: tuple[str, ...] = PYTHONS) -> dict[str, object]:
    shutil.rmtree(LIBS, ignore_errors=True)
    LIBS.mkdir(parents=True)
    common: dict[str, str] = {}
    compiled: dict[str, list[str]] = {}
    done: list[str] = []
    with tempfile.TemporaryDirectory() as tmp:
        for python in pythons:
            wheels = download(wheel, target, python, Path(tmp) / python)
            if wheels is None:
                continue
            tag = "cp" + python.replace(".", "")
            names: list[str] = []
            for w in wheels:
                if pure(w):
                    seen = common.get(dist_name(w))
                    if seen is None:
                        unpack(w, LIBS / "common")
                        common[dist_name(w)] = w.name
                    elif seen != w.name:
                        raise SystemExit(f"bundle: {seen} and {w.name} both resolved: pin one")
                else:
                    unpack(w, LIBS / tag)
                    names.append(w.name)
            compiled[python] = names
            done.append(python)
    if not done:
        raise SystemExit(f"bundle: no Python version has every wheel for {target}")
    info = {
        "target": target,
        "faultlens": version(),
        "pythons": done,
        "common": sorted(common.values()),
        "compiled": compiled,
    }
    (LIBS / "BUNDLE.json").write_text(json.dumps(info, indent=2) + "\n")
    return info


def package(target: str, folder: Path) -> Path:
    out = folder.resolve() / f"faultlens-{version()}@{target}.vsix"
    out.parent.mkdir(parents=True, exist_ok=True)
    subprocess.run(
        ["npm", "run", "-s", "package-target", "--", "--target", target, "--out", str(out)],
        cwd=EXTENSION,
        check=True,
    )
    return out


def main(argv: list[str] | None = None) -> int:
    p = argparse.ArgumentParser(prog="scripts/bundle_vscode.py", description=__doc__)
    p.add_argument("--target", required=True, choices=sorted(TARGETS))
    p.add_argument("--wheel", type=Path, help="the faultlens wheel (default: build one)")
    p.add_argument("--python", action="append", choices=PYTHONS, help="only these (repeatable)")
    p.add_argument(
        "--package",
        action="store_true",
        help="then build the .vsix with vsce, and remove bundled/libs again (the universal "
        ".vsix, `npm run package`, must not carry one platform's libraries)",
    )
    p.add_argument("--keep-libs", action="store_true", help="with --package: keep bundled/libs")
    p.add_argument("--out", type=Path, default=ROOT / "dist", help="where the .vsix goes (dist/)")
    a = p.parse_args(argv)
    with tempfile.TemporaryDirectory() as tmp:
        wheel = a.wheel.resolve() if a.wheel else build_wheel(Path(tmp))
        info = bundle(a.target, wheel, tuple(a.python or PYTHONS))
    pythons = ", ".join(str(v) for v in info["pythons"])  # type: ignore[attr-defined]
    print(f"bundle: {a.target}: Python {pythons} in {LIBS.relative_to(ROOT)}")
    if a.package:
        try:
            print(f"bundle: wrote {package(a.target, a.out)}")
        finally:
            if not a.keep_libs:
                shutil.rmtree(LIBS, ignore_errors=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
