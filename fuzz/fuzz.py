"""Coverage-guided fuzzing of one target of fuzz/targets.py with atheris.

    python fuzz/fuzz.py TARGET CORPUS_DIR [libFuzzer options...]

The corpus folder is seeded from tests/samples and fuzz/seeds (targets.SEEDS)
when empty.
Use fuzz/run.sh rather than this file directly.
"""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import atheris

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT / "fuzz"))

with atheris.instrument_imports(include=["faultlens", "targets"]):
    import targets


def seeds(target: str) -> list[Path]:
    """The files that seed a target's corpus (targets.SEEDS)."""
    return sorted({p for g in targets.SEEDS[target] for p in ROOT.glob(g) if p.is_file()})


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
