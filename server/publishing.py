"""Publishing diagnostics: each file's failures as LSP diagnostics (pushed,
or pulled by the client), their recipe links, and the failures under a range
(hover, code actions)."""

from __future__ import annotations

import functools
from collections.abc import Sequence
from pathlib import Path

from lsprotocol import types as T

from . import convert
from .server_state import ServerState
from .store import Entry


class DiagnosticsPublisher(ServerState):
    """The server's diagnostics: built from the store, published per file."""

    # -- diagnostics -----------------------------------------------------------------
    def diagnostics_for(
        self, path: Path, entries: Sequence[Entry] | None = None, hrefs: Hrefs | None = None
    ) -> tuple[list[T.Diagnostic], int | None]:
        """The diagnostics of one file and the version they are for."""
        found, version = self.diagnostics_json(path, entries, hrefs)
        structure = convert.structure_diagnostic
        return [structure(d) for d in found], version

    def diagnostics_json(
        self, path: Path, entries: Sequence[Entry] | None = None, hrefs: Hrefs | None = None
    ) -> tuple[list[convert.JsonObject], int | None]:
        """The diagnostics of one file as JSON, and the version they are for."""
        if entries is None:
            entries = self.store.for_path(path)
        if not entries:
            return [], None
        lines: Sequence[str]
        if all(e.placement and e.placement.kind == "log" for e in entries):
            lines, codec, version = [], self.workspace.position_codec, None  # not needed
            doc = self.workspace.text_documents.get(convert.path_to_uri(path))
            if doc is not None:
                version = doc.version
        else:
            lines, codec, version = self.text_of(path)
        if not lines:
            deepest = max(e.placement.line for e in entries if e.placement)
            lines = ["\n"] * (deepest + 1)
        hrefs = self.recipe_hrefs() if hrefs is None else hrefs
        out = []
        for e in entries:
            try:
                href = hrefs[e.record.failure_type]
                out.append(
                    convert.diagnostic_json(
                        e,
                        lines,
                        codec,
                        recipe_href=href,
                        task_in_source=self.settings.task_in_source,
                    )
                )
            except Exception as exc:
                self.crashed(f"diagnostic for {e.record.id}", exc)
        return out, version

    def recipe_hrefs(self) -> Hrefs:
        """Each failure type's recipe link, computed on first use (for one publish)."""
        return Hrefs(self.state_dir / "recipes")

    def publish(self, paths: set[Path] | Sequence[Path]) -> None:
        """Push (or, in pull mode, ask the client to pull) the diagnostics of these files."""
        if self.pull_mode:
            if self.supports("workspace.diagnostics.refresh_support"):
                self.spawn(self.workspace_diagnostic_refresh_async(None), "diagnostic refresh")
            return
        by_path = self.store.by_path(paths)
        hrefs = self.recipe_hrefs()
        for path in paths:
            diags, version = self.diagnostics_json(path, by_path.get(path, []), hrefs)
            params = convert.JsonObject(uri=convert.path_to_uri(path), diagnostics=diags)
            if version is not None:
                params["version"] = version
            # sent as built (protocol.get_message_type): no lsprotocol round trip
            self.protocol.notify(T.TEXT_DOCUMENT_PUBLISH_DIAGNOSTICS, params)

    def entries_at(self, uri: str, rng: T.Range) -> list[tuple[Entry, T.Diagnostic]]:
        """The failures whose diagnostic range touches `rng` (lines) in a document."""
        path = convert.uri_to_path(uri)
        if path is None:
            return []
        entries = self.store.for_path(path)
        if not entries:
            return []
        lines, codec, _ = self.text_of(path)
        hrefs = self.recipe_hrefs()
        out = []
        for e in entries:
            d = convert.diagnostic(
                e,
                lines or ["\n"],
                codec,
                recipe_href=hrefs[e.record.failure_type],
                task_in_source=self.settings.task_in_source,
            )
            if d.range.start.line <= rng.end.line and d.range.end.line >= rng.start.line:
                out.append((e, d))
        return out


class Hrefs(dict[str, "str | None"]):
    """failure type -> its recipe link: the project's override in
    `<state dir>/recipes/` when there is one, else the packaged document."""

    def __init__(self, overrides: Path) -> None:
        super().__init__()
        self.overrides = overrides

    def __missing__(self, failure_type: str) -> str | None:
        override = self.overrides / f"{failure_type}.md"
        href = (
            convert.path_to_uri(override)
            if override.is_file()
            else _packaged_recipe_href(failure_type)
        )
        self[failure_type] = href
        return href


@functools.lru_cache(maxsize=64)
def _packaged_recipe_href(failure_type: str) -> str | None:
    """The installed recipe document's URI (looked up once per type: it is on
    every diagnostic, and importlib.resources is slow)."""
    try:
        from importlib.resources import files

        path = Path(str(files("faultlens.recipes") / f"{failure_type}.md"))
    except (ImportError, TypeError):
        return None
    return convert.path_to_uri(path) if path.is_file() else None
