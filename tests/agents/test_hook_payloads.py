"""Reading the agent CLIs' hook payloads (captured or documented: payloads/README.md)."""

from __future__ import annotations

import pytest

from faultlens.agents.hook_payloads import PayloadError, answer, argv_of, parse

from .conftest import payload


def test_claude_code_failed_bash_call_gives_its_output_and_exit_code():
    call = parse("claude-code", payload("claude-code-PostToolUseFailure-tsc"))
    assert call is not None
    assert call.event == "PostToolUseFailure"
    assert call.exit_code == 2
    assert (
        call.output
        == "src/auth/middleware.ts(42,15): error TS2304: Cannot find name 'UserProfile'."
    )
    assert argv_of(call.command)[-2:] == ["-p", "."]
    assert call.session == "4acc1807-7dfa-4179-a7cd-5148e501036c"


def test_claude_code_successful_bash_call_is_exit_zero_with_stdout_and_stderr():
    call = parse("claude-code", payload("claude-code-PostToolUse-ls"))
    assert call is not None and call.exit_code == 0
    assert call.output == "auth\nmodels"


def test_claude_code_calls_of_other_tools_are_none_of_faultlens_business():
    data = payload("claude-code-PostToolUse-ls", tool_name="Read", tool_input={"file_path": "x"})
    assert parse("claude-code", data) is None


def test_codex_post_tool_use_reads_the_exec_output_and_its_exit_code():
    call = parse("codex", payload("codex-PostToolUse-shell"))
    assert call is not None and call.exit_code == 2
    assert "TS2304" in call.output
    assert call.command == ["bash", "-lc", "npx tsc -p ."]


def test_gemini_after_tool_reads_output_and_exit_code_from_llm_content():
    call = parse("gemini", payload("gemini-AfterTool-tsc"))
    assert call is not None and call.exit_code == 2
    assert (
        call.output
        == "src/auth/middleware.ts(42,15): error TS2304: Cannot find name 'UserProfile'."
    )


def test_gemini_shell_call_without_output_is_empty_not_the_placeholder():
    data = payload("gemini-AfterTool-tsc")
    data["tool_response"] = {"llmContent": "Output: (empty)", "returnDisplay": ""}
    call = parse("gemini", data)
    assert call is not None and call.output == "" and call.exit_code == 0


@pytest.mark.parametrize(
    "bad, why",
    [
        ([1, 2], "not a JSON object"),
        ({"tool_name": "Bash"}, "no hook_event_name"),
    ],
)
def test_a_payload_that_is_not_one_is_refused_in_one_line(bad, why):
    with pytest.raises(PayloadError, match=why):
        parse("claude-code", bad)


def test_an_unknown_agent_is_refused():
    with pytest.raises(PayloadError, match="unknown agent"):
        parse("vim", payload("claude-code-PostToolUse-ls"))


def test_the_answer_names_the_event_it_answers():
    call = parse("claude-code", payload("claude-code-PostToolUseFailure-tsc"))
    assert call is not None
    assert answer(call, "ctx") == {
        "hookSpecificOutput": {"hookEventName": "PostToolUseFailure", "additionalContext": "ctx"}
    }
