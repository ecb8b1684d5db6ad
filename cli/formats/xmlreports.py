"""XML reports CI servers read: JUnit (each failure a failed test case, one
suite per category) and Checkstyle (each failure an error of its file)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING
from xml.sax.saxutils import quoteattr

from faultlens.classifier.lazyre import lazy_compile

from .common import TOOL_NAME, Context, level

if TYPE_CHECKING:
    from faultlens.classifier.record import FailureRecord

_XML_BAD = lazy_compile("[\x00-\x08\x0b\x0c\x0e-\x1f\ufffe\uffff]")


def _a(text: object) -> str:
    """An XML attribute value (characters XML 1.0 cannot hold are dropped)."""
    return quoteattr(_XML_BAD.sub("", str(text)))


def _t(text: str) -> str:
    out = _XML_BAD.sub("", text)
    return out.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")


def _where(r: FailureRecord) -> str:
    if not r.source_file:
        return "-"
    return f"{r.source_file}:{r.source_line}" if r.source_line else r.source_file


def render_junit(records: Sequence[FailureRecord], ctx: Context) -> str:
    suites: dict[str, list[FailureRecord]] = {}
    for r in records:
        suites.setdefault(r.failure_type.value, []).append(r)
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n']
    out.append(
        f"<testsuites name={_a(TOOL_NAME)} tests={_a(len(records))} failures={_a(len(records))}>\n"
    )
    for category, members in suites.items():
        out.append(
            f"  <testsuite name={_a(f'{TOOL_NAME}.{category}')} tests={_a(len(members))}"
            f' failures={_a(len(members))} errors="0" skipped="0">\n'
        )
        for r in members:
            attrs = f"classname={_a(f'{TOOL_NAME}.{category}')} name={_a(f'{_where(r)} {r.signal}'[:500])}"
            if r.source_file:
                attrs += f" file={_a(r.source_file)}"
                if r.source_line:
                    attrs += f" line={_a(r.source_line)}"
            body = r.message or r.signal
            if r.hint.get("command"):
                body += f"\n\ncommand: {r.hint['command']}"
            out.append(f"    <testcase {attrs}>\n")
            out.append(
                f"      <failure message={_a(r.signal[:500])} type={_a(r.code or r.rule or category)}>"
                f"{_t(body)}</failure>\n"
            )
            out.append("    </testcase>\n")
        out.append("  </testsuite>\n")
    out.append("</testsuites>\n")
    return "".join(out)


def render_checkstyle(records: Sequence[FailureRecord], ctx: Context) -> str:
    files: dict[str, list[FailureRecord]] = {}
    for r in records:
        files.setdefault(r.source_file or r.log_file or "", []).append(r)
    out = ['<?xml version="1.0" encoding="UTF-8"?>\n<checkstyle version="4.3">\n']
    for name, members in files.items():
        out.append(f"  <file name={_a(name)}>\n")
        for r in members:
            attrs = f"line={_a(r.source_line or r.log_line or 1)}"
            if r.source_column:
                attrs += f" column={_a(r.source_column)}"
            source = f"{TOOL_NAME}.{r.rule or r.failure_type.value}"
            out.append(
                f"    <error {attrs} severity={_a(level(r))} message={_a(r.signal)} source={_a(source)}/>\n"
            )
        out.append("  </file>\n")
    out.append("</checkstyle>\n")
    return "".join(out)
