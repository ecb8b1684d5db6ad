"""`faultlens mcp`: faultlens as an MCP server over stdio (the official `mcp` SDK).

Six tools, each a few lines over `agents/service.py`, with an input schema,
an output schema (the return type: structured content) and honest
annotations:

| tool | reads | writes | annotations |
|---|---|---|---|
| classify | output text or a file in the workspace | nothing | read-only, idempotent |
| run | runs the command | the ledger and logs; with `recover`, the recipe's edits | destructive only with recover |
| recover | a stored failure | the recipe's edits, the ledger | destructive, not idempotent (the 2nd call escalates) |
| status | the ledger | nothing | read-only, idempotent |
| explain | the ledger, the recipe | nothing | read-only, idempotent |
| ci | a CI run's failed jobs' logs (GitHub Actions, GitLab) | nothing | read-only, open world |

Resources: `faultlens://recipes/{failure_type}`, the recipe document of each
category.  Errors are tool errors whose text is one line, never a traceback.
"""

from __future__ import annotations

from pathlib import Path
from typing import Annotated, Any

from mcp.server.mcpserver import MCPServer
from mcp.server.mcpserver.exceptions import ToolError
from mcp.types import ToolAnnotations
from pydantic import Field

from faultlens.classifier.taxonomy import FailureType

from .ci_answer import CIResult
from .compact import ClassifyResult
from .scoped import DEFAULT_TIMEOUT_S, MAX_TIMEOUT_S, Timed, scoped_call, stop_on_exit
from .service import (
    AgentError,
    Agents,
    Caller,
    ExplainResult,
    RecoverResult,
    RunResult,
    StatusResult,
)

INSTRUCTIONS = (
    "faultlens classifies build, test and agent failures into a fixed taxonomy (compile, test, "
    "branch_divergence, trust_gate, mcp_startup, plugin_startup, infra, prompt_delivery). "
    "Classify before you diagnose: call classify on a failed command's output (or run the "
    "command with run). Each failure type gets ONE automatic recovery attempt (recover, or "
    "run with recover=true); when a failure's attempt is no longer allowed, stop and report it "
    "to the user with explain's note instead of trying again."
)

READ_ONLY = ToolAnnotations(read_only_hint=True, destructive_hint=False, idempotent_hint=True)
FETCHES = ToolAnnotations(
    read_only_hint=True, destructive_hint=False, idempotent_hint=True, open_world_hint=True
)
RUNS = ToolAnnotations(
    read_only_hint=False, destructive_hint=True, idempotent_hint=False, open_world_hint=True
)
ATTEMPTS = ToolAnnotations(read_only_hint=False, destructive_hint=True, idempotent_hint=False)

Command = Annotated[
    str | list[str],
    Field(description="The command: an argv list, or a string split like a shell would."),
]


def _guard(call: Any) -> Any:
    """A refusal or a crash becomes a tool error of one line."""
    from faultlens.recipes import StateUnavailable

    try:
        return _shown(call())
    except AgentError as exc:
        raise ToolError(_shown(str(exc))) from None
    except StateUnavailable as exc:  # a read-only, full or linked-out .faultlens
        raise ToolError(_shown(f"faultlens cannot use its state: {exc}")) from None
    except Exception as exc:  # never a traceback to the agent
        text = str(exc).splitlines()[0] if str(exc) else ""
        raise ToolError(_shown(f"{type(exc).__name__}: {text}".rstrip(": "))) from None


def _shown(result: Any) -> Any:
    """Every answer passes the redactor on its way out (classifier/redact.py
    `scrub`): whatever built a field, no secret reaches the agent."""
    from pydantic import BaseModel

    from faultlens.classifier.redact import scrub

    if isinstance(result, BaseModel):
        return type(result).model_validate(scrub(result.model_dump()))
    return scrub(result)


class FaultLensMCP(MCPServer):
    """The SDK's server, with arguments that fail the tool's input schema
    answered in one line (`failure_id: Field required`), as every other tool
    error: the SDK's answer is pydantic's report, over several lines, with
    the rejected values and a link to pydantic's documentation."""

    async def call_tool(self, name: str, arguments: dict[str, Any], context: Any = None) -> Any:
        from pydantic import ValidationError

        try:
            return await super().call_tool(name, arguments, context)
        except ToolError as exc:
            cause = exc.__cause__
            if not isinstance(cause, ValidationError):
                raise
            problems = [
                f"{'.'.join(str(p) for p in e['loc']) or 'arguments'}: {e['msg']}"
                for e in cause.errors(include_url=False, include_input=False)
            ]
            more = f" (and {len(problems) - 3} more)" if len(problems) > 3 else ""
            text = f"invalid arguments for {name}: {'; '.join(problems[:3])}{more}"
            raise ToolError(_shown(" ".join(text.split()))) from None


def build(root: Path, caller: Caller, state_dir: Path | None = None) -> MCPServer:
    """The MCP server for one workspace root."""
    from faultlens.classifier.package_version import version

    agents = Agents(root, caller, state_dir)
    agents.recover_state()  # put back what a killed faultlens left, once per server start
    server = FaultLensMCP(name="faultlens", version=version(), instructions=INSTRUCTIONS)

    @server.tool(
        title="Classify failure output",
        description="Classify a failed command's output (text in `output`, or a file in the "
        "workspace at `path`) into the failure taxonomy: category, severity, location, signal, "
        "recipe and whether the one automatic attempt is still allowed. Read-only.",
        annotations=READ_ONLY,
    )
    def classify(
        # `str` itself, not `str | None`: the SDK parses a string argument as
        # JSON unless its annotation is exactly `str` (func_metadata.pre_parse_json),
        # which would turn a JSON report (SARIF, eslint's JSON) into an object.
        output: Annotated[
            str, Field(description="The output text, any text (JSON reports included).")
        ] = "",
        path: Annotated[str | None, Field(description="A file holding the output.")] = None,
        cwd: Annotated[
            str | None, Field(description="Where the output was produced (workspace-relative).")
        ] = None,
        command: Annotated[
            str | list[str] | None, Field(description="The command that produced it.")
        ] = None,
        exit_code: Annotated[int | None, Field(description="Its exit status.")] = None,
    ) -> ClassifyResult:
        return _guard(  # type: ignore[no-any-return]
            lambda: agents.classify(
                output=output if path is None else (output or None),
                path=path,
                cwd=cwd,
                command=command,
                exit_code=exit_code,
            )
        )

    @server.tool(
        title="Run a command and classify its failures",
        description="Run a command (no shell) in the workspace, classify and log every failure; "
        "with recover=true make each failure type's one recovery attempt and verify it by "
        "re-running the command. The exit status is that of the last run of the command.",
        annotations=RUNS,
    )
    async def run(
        command: Command,
        cwd: Annotated[str | None, Field(description="Workspace-relative folder.")] = None,
        task: Annotated[str | None, Field(description="The task the run belongs to.")] = None,
        recover: Annotated[bool, Field(description="Make the one attempt per type.")] = False,
        timeout: Annotated[
            float,
            Field(
                gt=0,
                le=MAX_TIMEOUT_S,
                description="Seconds before the command (its whole process group) is stopped; "
                "the answer then holds what it printed until then.",
            ),
        ] = DEFAULT_TIMEOUT_S,
    ) -> RunResult:
        timed = Timed()
        result: RunResult = await scoped_call(
            lambda: _guard(lambda: agents.run(command, cwd=cwd, task=task, recover=recover)),
            agents.workspace(),
            timeout,
            timed,
        )
        if timed.fired:
            result.timed_out = True
        return result

    @server.tool(
        title="Recover one failure",
        description="Apply a stored failure's recipe once (ids come from run). A failure whose "
        "attempt was already made is escalated instead: the answer then says why and what the "
        "user's options are; do not try again.",
        annotations=ATTEMPTS,
    )
    async def recover(
        failure_id: Annotated[str, Field(description="The failure's id (or a unique prefix).")],
        task: Annotated[str | None, Field(description="The task it belongs to.")] = None,
    ) -> RecoverResult:
        result: RecoverResult = await scoped_call(
            lambda: _guard(lambda: agents.recover(failure_id, task=task)),
            agents.workspace(),
            MAX_TIMEOUT_S,
            Timed(),
        )
        return result

    @server.tool(
        title="Tasks, attempts and escalations",
        description="What the ledger shared with the CLI and the editors knows: tasks, attempts "
        "by result, escalations, and the agent sessions seen.",
        annotations=READ_ONLY,
    )
    def status() -> StatusResult:
        return _guard(agents.status)  # type: ignore[no-any-return]

    @server.tool(
        title="Explain a failure's escalation",
        description="The boxed escalation note of a stored failure (what was classified, what "
        "was tried, why it failed) and the options a human has, with the recipe document.",
        annotations=READ_ONLY,
    )
    def explain(
        failure_id: Annotated[str, Field(description="The failure's id (or a unique prefix).")],
    ) -> ExplainResult:
        return _guard(lambda: agents.explain(failure_id))  # type: ignore[no-any-return]

    @server.tool(
        title="Why did CI fail",
        description="Fetch a CI run's failed jobs (a GitHub Actions run, job or pull request "
        "URL, a GitLab pipeline or job URL; none: the latest run of the checkout's branch on "
        "origin), read only the failed jobs' logs and classify them at the lines of this "
        "checkout: each failed job's primary failure first, then the rest, and whether the "
        "local HEAD is the run's commit. Tokens come from the server's environment.",
        annotations=FETCHES,
    )
    def ci(
        url: Annotated[
            str | None, Field(description="The run, job, pull request or pipeline URL.")
        ] = None,
    ) -> CIResult:
        return _guard(lambda: _ci(url, agents.root))  # type: ignore[no-any-return]

    @server.resource(
        "faultlens://recipes/{failure_type}",
        name="recipe",
        title="Recovery recipe",
        description="The recipe document of a failure category (what it does, when it refuses).",
        mime_type="text/markdown",
    )
    def recipe(failure_type: str) -> str:
        from faultlens.recipes import recipe_doc

        try:
            ft = FailureType(failure_type)
        except ValueError:
            from mcp.server.mcpserver.exceptions import ResourceNotFoundError

            raise ResourceNotFoundError(f"no category {failure_type!r}") from None
        return recipe_doc(ft.value, agents.workspace()).body_markdown

    return server


def _ci(url: str | None, root: Path) -> CIResult:
    from faultlens.remote.ciurl import CIUrlError
    from faultlens.remote.http import RemoteError
    from faultlens.remote.service import ci

    from .ci_answer import ci_result

    try:
        return ci_result(ci(url, root))
    except (CIUrlError, RemoteError) as exc:
        raise AgentError(str(exc)) from None


def serve(root: Path, caller: Caller, state_dir: Path | None = None) -> None:
    """Serve MCP over stdio until the client closes the stream; every command a
    call started is stopped by then (and on SIGTERM)."""
    import anyio

    from .mcp_stdio import serve_stdio

    stop_all = stop_on_exit()
    try:
        anyio.run(serve_stdio, build(root, caller, state_dir))
    finally:
        stop_all()
