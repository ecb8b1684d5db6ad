"""Coverage-guided fuzzing of one target of fuzz/targets.py with atheris.

    python fuzz/fuzz.py TARGET CORPUS_DIR [libFuzzer options...]

The corpus folder is seeded from tests/samples (see `seeds`) when empty.
Use fuzz/run.sh rather than this file directly.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import atheris

ROOT = Path(__file__).resolve().parent.parent
SAMPLES = ROOT / "tests" / "samples"
sys.path.insert(0, str(ROOT / "fuzz"))

with atheris.instrument_imports(include=["faultlens", "targets"]):
    import targets

SEED_GLOBS = {
    "classifier": ["*/*/output.txt"],
    "junit": ["**/*.xml"],
    "sarif": ["**/*.sarif"],
    "cargo_json": ["cargo_json/*/output.txt", "rust/*/output.txt"],
}


def seeds(target: str) -> list[Path]:
    """The sample files that seed a target's corpus."""
    return sorted({p for g in SEED_GLOBS[target] for p in SAMPLES.glob(g) if p.is_file()})


def seed_corpus(target: str, corpus: Path) -> None:
    corpus.mkdir(parents=True, exist_ok=True)
    if any(corpus.iterdir()):
        return
    for i, path in enumerate(seeds(target)):
        shutil.copyfile(path, corpus / f"seed-{i:04d}-{path.parent.name}")


def main() -> None:
    target, corpus = sys.argv[1], Path(sys.argv[2])
    fn = targets.TARGETS[target]
    seed_corpus(target, corpus)

    def one_input(data: bytes) -> None:
        fn(data)

    atheris.Setup([sys.argv[0], str(corpus), *sys.argv[3:]], one_input)
    atheris.Fuzz()


if __name__ == "__main__":
    main()
