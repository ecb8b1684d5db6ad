"""JUnit XML reports: pytest `--junitxml`, jest-junit, Maven Surefire,
Gradle, go-junit-report.

What it detects: every `<testcase>` with a `<failure>` or `<error>` child.
A failure is a test record; an error whose text is a missing import or a
syntax error (pytest's collection errors are reported as `<error>` of a
pseudo test case) is a compile record, as in the text rules' precedence.

Example input (`python -m pytest --junitxml=output.xml`, pytest 9.2.0):
    <testcase classname="tests.test_cart" name="test_total" time="0.001">
      <failure message="assert 5 == 6">...tests/test_cart.py:7: AssertionError</failure>

Location: the `file`/`line` attributes when the producer writes them (1-based
unless from pytest, whose xunit1 `line` is 0-based), else the last
`path:line` of the failure text that names a file in the project, else the
test file found from the class name (`tests.test_cart` → tests/test_cart.py,
`com.acme.AppTest` → src/test/java/com/acme/AppTest.java).

The XML is parsed with defusedxml: no entity expansion, no external
entities, no DTD retrieval.  Elements are cleared as soon as they are read,
so memory follows the number of failures.

References: https://github.com/testmoapp/junitxml
"""

from __future__ import annotations

import logging
import re
from pathlib import PurePosixPath
from typing import IO
from xml.etree.ElementTree import Element, ParseError

from defusedxml import DefusedXmlException
from defusedxml.ElementTree import iterparse

from ..engine import Classifier
from ..lazyre import lazy_compile
from ..rules.base import Hit
from ..taxonomy import FailureType
from .parsing import Parser
from .stream import Rejoined

log = logging.getLogger(__name__)

RULE_ID = "junit.testcase"
_HEAD = lazy_compile(rb"^\s*(?:<\?xml[^>]*>\s*)?(?:<!--.*?-->\s*)*<testsuites?[\s>]", re.S)
_LOCATION = lazy_compile(r"(?P<file>[\w./\\-]+\.[A-Za-z]\w*)[:(](?P<line>\d+)")
_COMPILE = lazy_compile(r"\b(?:ModuleNotFoundError|ImportError|SyntaxError|IndentationError)\b")
_EXPECTED = lazy_compile(r"expected:?\s*<(?P<expected>.*?)>\s*but was:?\s*<(?P<actual>.*?)>", re.S)
_PY_ASSERT = lazy_compile(r"assert (?P<actual>.+?) == (?P<expected>.+?)$", re.M)
_E_LINE = lazy_compile(r"^E {3}(.+)$", re.M)
_MISSING_MODULE = lazy_compile(r"No module named '(?P<module>[\w.]+)'")
_MAX_TEXT = 8192


def sniff(head: bytes) -> Parser | None:
    return parse if _HEAD.match(head.lstrip(b"\xef\xbb\xbf")) else None


def parse(head: bytes, stream: IO[bytes], classifier: Classifier) -> None:
    """Every failed test case read before the end of the report; a truncated,
    malformed or entity-bearing report keeps what was read up to there."""
    try:
        _parse(head, stream, classifier)
    except (ParseError, DefusedXmlException, LookupError, ValueError) as exc:
        log.warning("JUnit XML unreadable past this point: %s", exc)


def _parse(head: bytes, stream: IO[bytes], classifier: Classifier) -> None:
    producer = "junit"
    for event, elem in iterparse(Rejoined(head, stream), events=("start", "end")):
        tag = _local(elem.tag)
        if event == "start":
            if tag == "testsuite" and elem.get("name") == "pytest":
                producer = "pytest"
            continue
        if tag != "testcase":
            continue
        for child in elem:
            kind = _local(child.tag)
            if kind in ("failure", "error"):
                classifier.add_hit(
                    _hit(elem, child, kind, producer, classifier),
                    rule_id=RULE_ID,
                    category_=FailureType.TEST,
                    tool=producer,
                )
                break
        elem.clear()


def _local(tag: object) -> str:
    return str(tag).rsplit("}", 1)[-1]


def _hit(case: Element, problem: Element, kind: str, producer: str, c: Classifier) -> Hit:
    classname = case.get("classname") or ""
    name = case.get("name") or "?"
    message = (problem.get("message") or "").strip()
    text = (problem.text or "")[:_MAX_TEXT]
    first = message.splitlines()[0] if message else (text.strip().splitlines() or [kind])[0]
    e_lines = _E_LINE.findall(text)
    if e_lines and (not message or message == "collection failure"):
        first = e_lines[-1].strip()  # pytest's "E   ModuleNotFoundError: ..." line
    category = (
        FailureType.COMPILE
        if kind == "error" and _COMPILE.search(message + "\n" + text)
        else FailureType.TEST
    )
    file, line = _location(case, text, classname, producer, c)
    test_id = f"{classname}.{name}" if classname else name
    if producer == "pytest" and file and not classname:
        test_id = file  # a collection error: the whole module
    elif producer == "pytest" and file and file.endswith(".py"):
        klass = classname.rsplit(".", 1)[-1] if classname else ""
        module = PurePosixPath(file).stem
        parts = [file] + ([klass] if klass and klass != module else []) + [name]
        test_id = "::".join(parts)
    hint: dict[str, object] = {"test_id": test_id, "test_name": name, "runner": producer}
    if classname:
        hint["suite"] = classname
    missing = _MISSING_MODULE.search(first)
    if missing:
        hint["module"] = missing.group("module")
    m = _EXPECTED.search(text) or _EXPECTED.search(message)
    if m is None and producer == "pytest":
        m = _PY_ASSERT.search(message) or _PY_ASSERT.search(text)
    if m:
        hint["expected"] = m.group("expected").strip()
        hint["actual"] = m.group("actual").strip()
    return Hit(
        signal=f"{kind}: {test_id}: {first}"[:500],
        message=first,
        file=file,
        line=line,
        category=category,
        hint=hint,
        key=("junit", test_id),
        resolved=False,
    )


def _location(
    case: Element, text: str, classname: str, producer: str, c: Classifier
) -> tuple[str | None, int | None]:
    file = case.get("file")
    line_attr = case.get("line")
    candidates = [
        (m.group("file"), int(m.group("line")))
        for m in _LOCATION.finditer(text)
        if c.locator.in_project(m.group("file"))
    ]
    if file and candidates:
        same = [x for x in candidates if c.locator.resolve(x[0]) == c.locator.resolve(file)]
        if same:
            return same[-1]
    if candidates:
        return candidates[-1]
    if file:
        line = int(line_attr) if line_attr and line_attr.isdigit() else None
        if line is not None and producer == "pytest":
            line += 1  # pytest writes item.location, which is 0-based
        return file, line or None
    for guess in _files_for_class(classname):
        if c.locator.exists(guess):
            return guess, None
    return None, None


def _files_for_class(classname: str) -> list[str]:
    if not classname:
        return []
    parts = classname.split(".")
    out = []
    for i in range(len(parts), 0, -1):
        out.append("/".join(parts[:i]) + ".py")
    java = "/".join(parts) + ".java"
    out += [f"src/test/java/{java}", f"src/main/java/{java}", java]
    return out
