"""What an uncaught Python exception means (classifier/rules/python_meaning.py)."""

from faultlens.classifier.rules.python_causes import BUILD_ERRORS
from faultlens.classifier.rules.python_meaning import runtime_meaning
from faultlens.classifier.taxonomy import FailureType


def test_only_what_stops_the_code_from_being_built_or_imported_is_compile():
    for exc in (
        "SyntaxError",
        "IndentationError",
        "ModuleNotFoundError",
        "ImportError",
        "NameError",
    ):
        assert exc in BUILD_ERRORS
    for exc in ("TypeError", "AttributeError", "KeyError", "ValueError", "RuntimeError"):
        assert exc not in BUILD_ERRORS
        assert runtime_meaning(exc, ["x"]).category is not FailureType.COMPILE


def test_out_of_memory_by_type_or_message_is_permanent_infra():
    for exc, message in (
        ("torch.OutOfMemoryError", "CUDA out of memory. Tried to allocate 2.00 GiB"),
        ("RuntimeError", "CUDA out of memory. Tried to allocate 20.00 MiB"),
        ("MemoryError", ""),
    ):
        meaning = runtime_meaning(exc, [message])
        assert meaning.category is FailureType.INFRA
        assert meaning.hint["kind"] == "oom" and meaning.hint["transient"] is False


def test_a_full_disk_or_a_refused_connection_named_by_a_script_error_is_infra():
    disk = runtime_meaning("OSError", ["[Errno 28] No space left on device: '/tmp/x'"])
    assert (disk.category, disk.hint["kind"]) == (FailureType.INFRA, "disk_full")
    refused = runtime_meaning("RuntimeError", ["upload failed: [Errno 111] Connection refused"])
    assert (refused.category, refused.hint["transient"]) == (FailureType.INFRA, True)


def test_a_runtime_error_quoting_a_git_conflict_is_branch_divergence_keyed_on_the_file():
    meaning = runtime_meaning(
        "RuntimeError", ["merge failed:\nCONFLICT (content): Merge conflict in setup.cfg"]
    )
    assert meaning.category is FailureType.BRANCH_DIVERGENCE
    assert meaning.key == ("conflict", "setup.cfg")


def test_an_error_raised_through_a_test_is_the_tests_and_a_scripts_is_a_runtime_crash():
    in_test = runtime_meaning("TypeError", ["bad operand"], [("tests/test_cart.py", "test_total")])
    assert in_test.category is FailureType.TEST
    runner = runtime_meaning("KeyError", ["'a'"], [("/v/lib/_pytest/python.py", "runtest")])
    assert runner.category is FailureType.TEST
    script = runtime_meaning("TypeError", ["bad operand"], [("tools/release.py", "main")])
    assert (script.category, script.hint["kind"]) == (FailureType.INFRA, "runtime")
