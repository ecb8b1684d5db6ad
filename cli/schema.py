"""`faultlens schema`: print the JSON Schema of the failure record."""

from __future__ import annotations

import argparse
import json
from typing import Any


def add_parser(sub: Any) -> None:
    p = sub.add_parser("schema", help="print the JSON Schema of the failure record")
    p.set_defaults(func=run)


def run(args: argparse.Namespace) -> int:
    from faultlens.classifier.record_schema import FailureRecord

    print(json.dumps(FailureRecord.model_json_schema(), indent=2))
    return 0
