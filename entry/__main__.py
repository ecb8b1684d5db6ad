"""`python -m faultlens`: the `faultlens` command (faultlens.cli.main).

`faultlens` is a namespace package (the code folders install as
faultlens.classifier, faultlens.server, ...); this module is all it holds of
its own, so that `python -m faultlens ARGS` works where the `faultlens` script
is not on PATH (a plain `pip install --user`, `uvx`, an embedded interpreter)."""

from faultlens.cli.main import main

raise SystemExit(main())
