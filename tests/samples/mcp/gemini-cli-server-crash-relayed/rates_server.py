"""The exchange-rates MCP server (stdio)."""

import sys

sys.path.insert(0, ".")

from ledger_tables import rates_table  # noqa: E402


def main() -> None:
    print(rates_table, file=sys.stderr)


if __name__ == "__main__":
    main()
