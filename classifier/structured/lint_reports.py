"""Linters' own report formats: checkstyle XML (shellcheck, hadolint,
eslint, golangci-lint, ktlint...) and the JSON reports of eslint,
stylelint, shellcheck (`json1`, `json`) and hadolint.

What it detects: every finding of the report, one record each, at its file,
line and column; the producer is told from the report's shape (JSON) or
from each finding's `source` (checkstyle: `ShellCheck.SC2086`, `DL3008`,
`eslint.rules.no-undef`, a golangci-lint linter's name).

Which findings fail the run is the producer's own rule, as in the text
formats: every ShellCheck finding (it exits 1 for any), every hadolint
finding but `style` ones, eslint's and stylelint's `error`s; the others are
warnings (docs/warnings.md: failures only when the run failed because of
them). A security rule (eslint's `security/...`, gosec) is a trust_gate.
Text after the JSON document (stylelint's "Max warnings exceeded: ...") is
classified as text.

Example input (`shellcheck -f json1 deploy.sh`, ShellCheck 0.11.0):
    {"comments":[{"file":"deploy.sh","line":8,"endLine":8,"column":1,"endColumn":11,
      "level":"warning","code":2164,"message":"Use 'cd ... || exit' ..."}]}

The XML is parsed with defusedxml (no entities, no DTD retrieval).

References: https://checkstyle.org/, https://eslint.org/docs/latest/use/formatters/#json,
https://stylelint.io/user-guide/options#formatter, https://github.com/koalaman/shellcheck/wiki/,
https://github.com/hadolint/hadolint#formats
"""

from __future__ import annotations

import json
import logging
import re
from collections.abc import Iterator
from typing import IO, Any
from xml.etree.ElementTree import ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import iterparse

from ..engine import Classifier
from ..lazyre import lazy_compile
from ..rules.base import Hit
from ..security_codes import is_security_code
from ..taxonomy import FailureType
from .parsing import Parser
from .stream import Rejoined

log = logging.getLogger(__name__)

MAX_REPORT = 256 * 1024 * 1024
_CHECKSTYLE = lazy_compile(rb"^\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*<checkstyle[\s>]", re.S)
_JSON = lazy_compile(
    rb'^\s*(?:\{\s*"comments"\s*:\s*\[|\[\s*\{\s*"(?:filePath|source|file|code)"\s*:)'
)
_HADOLINT_CODE = lazy_compile(r"^(?:DL|SC)\d{4}$")
_MALFORMED = (AttributeError, TypeError, ValueError, KeyError)


def sniff_checkstyle(head: bytes) -> Parser | None:
    return parse_checkstyle if _CHECKSTYLE.match(head.lstrip(b"\xef\xbb\xbf")) else None


def sniff_json(head: bytes) -> Parser | None:
    return parse_json if _JSON.match(head.lstrip(b"\xef\xbb\xbf")) else None


# -- one finding ---------------------------------------------------------------------------


def _pos(value: object) -> int | None:
    if isinstance(value, str) and value.isdigit():
        value = int(value)
    return value if isinstance(value, int) and value > 0 else None


def _add(
    c: Classifier,
    producer: str,
    *,
    file: object,
    line: object,
    column: object,
    message: object,
    code: object,
    level: str,
    fails: bool,
    end_line: object = None,
    end_column: object = None,
    security: bool = False,
) -> None:
    text = str(message or "").strip() or str(code or "finding")
    first = text.splitlines()[0]
    code_s = str(code) if code not in (None, "") else None
    if code_s and first.endswith(f" ({code_s})"):
        first = first[: -len(code_s) - 3]  # the rule name repeated in the text
    signal = f"{producer} {code_s}: {first}" if code_s else f"{producer}: {first}"
    hint: dict[str, Any] = {"level": level, "producer": producer}
    if code_s:
        hint["rule"] = code_s
    hit = Hit(
        signal=signal[:500],
        message=first,
        file=str(file) if file else None,
        line=_pos(line),
        column=_pos(column),
        end_line=_pos(end_line),
        end_column=_pos(end_column),
        code=code_s,
        warning=not fails and not security,
        hint=hint,
    )
    c.add_hit(
        hit,
        rule_id=f"lint_report.{producer}",
        category_=FailureType.TRUST_GATE if security else FailureType.COMPILE,
        tool=producer,
    )


# -- JSON ------------------------------------------------------------------------------------


def parse_json(head: bytes, stream: IO[bytes], classifier: Classifier) -> None:
    data = head + stream.read(MAX_REPORT)
    text = data.decode("utf-8", "replace")
    try:
        doc, end = json.JSONDecoder().raw_decode(text, len(text) - len(text.lstrip()))
    except json.JSONDecodeError:
        classifier.feed(data)  # not a report after all: classify as text
        return
    try:
        found = _json_report(doc, classifier)
    except _MALFORMED as exc:  # a field of an unexpected shape: keep what was read
        log.warning("lint report unreadable past this point: %s", exc)
        found = True
    if not found:
        classifier.feed(data)
        return
    rest = text[end:]
    if rest.strip():
        classifier.feed_text(rest)


def _json_report(doc: object, c: Classifier) -> bool:
    """Feed the findings of a known report shape; False for an unknown one."""
    if isinstance(doc, dict) and isinstance(doc.get("comments"), list):
        _shellcheck(doc["comments"], c)
        return True
    if not isinstance(doc, list) or not doc or not isinstance(doc[0], dict):
        return False
    first = doc[0]
    if "filePath" in first and "messages" in first:
        _eslint(doc, c)
    elif "source" in first and "warnings" in first:
        _stylelint(doc, c)
    elif "file" in first and isinstance(first.get("code"), int) and "level" in first:
        _shellcheck(doc, c)
    elif isinstance(first.get("code"), str) and "level" in first and "line" in first:
        _hadolint(doc, c)
    else:
        return False
    return True


def _dicts(items: object) -> Iterator[dict[str, Any]]:
    for item in items if isinstance(items, list) else []:
        if isinstance(item, dict):
            yield item


def _shellcheck(comments: object, c: Classifier) -> None:
    for f in _dicts(comments):
        code = f.get("code")
        _add(
            c,
            "shellcheck",
            file=f.get("file"),
            line=f.get("line"),
            column=f.get("column"),
            end_line=f.get("endLine"),
            end_column=f.get("endColumn"),
            message=f.get("message"),
            code=f"SC{code}" if isinstance(code, int) else code,
            level=str(f.get("level") or "error"),
            fails=True,  # shellcheck exits 1 for any finding it prints
        )


def _hadolint(findings: object, c: Classifier) -> None:
    for f in _dicts(findings):
        level = str(f.get("level") or "error")
        _add(
            c,
            "hadolint",
            file=f.get("file"),
            line=f.get("line"),
            column=f.get("column"),
            message=f.get("message"),
            code=f.get("code"),
            level=level,
            fails=level != "style",  # below the default --failure-threshold (info)
        )


def _eslint(files: object, c: Classifier) -> None:
    for f in _dicts(files):
        for msg in _dicts(f.get("messages")):
            rule = msg.get("ruleId")
            error = msg.get("severity") == 2 or bool(msg.get("fatal"))
            _add(
                c,
                "eslint",
                file=f.get("filePath"),
                line=msg.get("line"),
                column=msg.get("column"),
                end_line=msg.get("endLine"),
                end_column=msg.get("endColumn"),
                message=msg.get("message"),
                code=rule,
                level="error" if error else "warning",
                fails=error,
                security=isinstance(rule, str) and is_security_code(rule, "eslint"),
            )


_STYLELINT_RULE = lazy_compile(r"\s*\((?P<rule>[\w@/-]+)\)\s*$")


def _stylelint(files: object, c: Classifier) -> None:
    for f in _dicts(files):
        for w in _dicts(f.get("warnings")):
            rule = w.get("rule")
            text = str(w.get("text") or "")
            m = _STYLELINT_RULE.search(text)
            if m and m.group("rule") == rule:
                text = text[: m.start()]  # the rule name repeated in the text
            severity = str(w.get("severity") or "error")
            _add(
                c,
                "stylelint",
                file=f.get("source"),
                line=w.get("line"),
                column=w.get("column"),
                end_line=w.get("endLine"),
                end_column=w.get("endColumn"),
                message=text,
                code=rule,
                level=severity,
                fails=severity == "error",
            )


# -- checkstyle -----------------------------------------------------------------------------


def parse_checkstyle(head: bytes, stream: IO[bytes], classifier: Classifier) -> None:
    """Every `<error>` read before the end of the report; a truncated or
    malformed report keeps what was read up to there."""
    try:
        _checkstyle(head, stream, classifier)
    except (ParseError, DefusedXmlException, LookupError, ValueError) as exc:
        log.warning("checkstyle report unreadable past this point: %s", exc)


def _producer(source: str) -> tuple[str, str | None]:
    """(producer, rule code) from a checkstyle `source` attribute."""
    if source.startswith("ShellCheck."):
        return "shellcheck", source.removeprefix("ShellCheck.")
    if _HADOLINT_CODE.match(source):
        return "hadolint", source
    if source.startswith("eslint.rules."):
        return "eslint", source.removeprefix("eslint.rules.")
    return "checkstyle", source or None


def _checkstyle(head: bytes, stream: IO[bytes], c: Classifier) -> None:
    file: str | None = None
    known: str | None = None  # the report's producer, once a finding names it
    for event, elem in iterparse(Rejoined(head, stream), events=("start", "end")):
        tag = elem.tag.rsplit("}", 1)[-1]
        if event == "start":
            if tag == "file":
                file = elem.get("name")
            continue
        if tag != "error":
            if tag == "file":
                elem.clear()
            continue
        source = elem.get("source") or ""
        producer, code = _producer(source)
        if producer != "checkstyle":
            known = producer
        elif known and not source:
            producer = known  # a parse error has no source: the report's producer
        severity = (elem.get("severity") or "error").lower()
        if producer == "shellcheck":
            fails = True
        elif producer == "hadolint":
            fails = severity != "style"
        else:
            fails = severity == "error"
        security = is_security_code(code, producer)
        _add(
            c,
            producer,
            file=file,
            line=elem.get("line"),
            column=elem.get("column"),
            message=elem.get("message"),
            code=code,
            level=severity,
            fails=fails,
            security=security,
        )
        elem.clear()
