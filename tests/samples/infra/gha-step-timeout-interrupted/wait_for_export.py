"""Wait for the nightly export to appear, then load it."""

import pathlib
import time


def wait_for(path: pathlib.Path) -> None:
    while not path.exists():
        time.sleep(0.2)


def main() -> None:
    export = pathlib.Path("exports/nightly.csv")
    print(f"waiting for {export} ...", flush=True)
    wait_for(export)
    print(export.read_text())


if __name__ == "__main__":
    main()
