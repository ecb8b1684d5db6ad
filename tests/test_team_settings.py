"""Where the team's history database is configured (pure: no server)."""

from __future__ import annotations

from pathlib import Path

from faultlens.classifier.record import FailureRecord
from faultlens.recipes.team.facts import is_mass_failure
from faultlens.recipes.team.settings import resolve


def test_the_environment_wins() -> None:
    cfg = resolve(
        {"history": {"url": "postgresql://x@h/db"}},
        {"FAULTLENS_HISTORY_URL": "postgresql://e@h/db"},
    )
    assert (cfg.url, cfg.origin) == ("postgresql://e@h/db", "FAULTLENS_HISTORY_URL")


def test_a_project_url_takes_its_password_from_the_environment() -> None:
    cfg = resolve(
        {"history": {"url": "postgresql://ci:${PGPASS}@db.internal:5432/team"}}, {"PGPASS": "s3"}
    )
    assert cfg.url == "postgresql://ci:s3@db.internal:5432/team" and cfg.problem is None


def test_a_password_written_in_the_project_config_is_refused() -> None:
    for url in ("postgresql://ci:hunter2@db/team", "postgresql://db/team?password=hunter2"):
        cfg = resolve({"history": {"url": url}}, {})
        assert cfg.url is None and cfg.problem and "holds a password" in cfg.problem
        assert "hunter2" not in cfg.problem


def test_an_unset_variable_is_named_and_nothing_is_used() -> None:
    cfg = resolve({"history": {"url": "postgresql://${PGUSER}@db/team"}}, {})
    assert cfg.url is None and cfg.problem and "PGUSER" in cfg.problem


def test_the_users_config_is_read_when_the_project_says_nothing(tmp_path: Path) -> None:
    conf = tmp_path / "faultlens" / "config.toml"
    conf.parent.mkdir()
    conf.write_text('[history]\nurl = "postgresql://me@localhost/team"\nquarantine_after = 3\n')
    cfg = resolve(None, {"XDG_CONFIG_HOME": str(tmp_path)})
    assert cfg.url == "postgresql://me@localhost/team" and cfg.quarantine_after == 3


def test_no_url_no_team_history() -> None:
    cfg = resolve(None, {})
    assert cfg.url is None and cfg.problem is None
    assert resolve(None, {"FAULTLENS_HISTORY_URL": "mysql://x"}).problem


def _test_failure(total: int) -> FailureRecord:
    return FailureRecord(
        failure_type="test",
        severity="blocking",
        signal="x",
        auto_recoverable="partial",
        recipe="recipes/test.md",
        hint={"tests_total": total},
    )


def test_most_of_a_runs_tests_failing_is_a_mass_failure() -> None:
    many = [_test_failure(10) for _ in range(9)]
    assert is_mass_failure(many, 0.8)
    assert not is_mass_failure(many[:3], 0.8)
    assert not is_mass_failure(many[:3], 0.8)
    assert not is_mass_failure([_test_failure(0)], 0.8)  # no total: never guessed


def test_the_history_and_recipes_tables_are_known_keys_of_the_project_config(
    tmp_path: Path,
) -> None:
    from faultlens.classifier.config import load_config

    (tmp_path / ".faultlens.toml").write_text(
        '[history]\nurl = "postgresql://ci@db/team"\n[recipes.test]\nretry = "known-flakes"\n'
    )
    cfg = load_config(tmp_path)
    assert cfg.errors == [] and cfg.table["recipes"]["test"]["retry"] == "known-flakes"
