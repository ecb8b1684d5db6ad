"""Team history: every runner's failures in one PostgreSQL database.

The local ledger stays the truth of a workspace's own attempts; this adds
what the team has seen: the same failure on other machines and CI jobs, a
test that failed here and passed elsewhere on the same code (flaky without
a local re-run), quarantined tests.

* `settings`: where the database is (FAULTLENS_HISTORY_URL, or `[history]
  url` in the user's or the project's config; a `${VAR}` reference, never a
  committed password);
* `facts`: what one run sends (pure: rows with idempotent keys, redacted);
* `outbox`: the local queue every run writes first, so a slow or unreachable
  server never slows or fails a run, and nothing is lost;
* `database`: the schema (versioned, migrated once under an advisory lock)
  and the writes and reads (psycopg 3, the optional `faultlens[team]`);
* `sync`: after a run, send what is queued within a small time budget.

Everything read from the database is data: counts and names shown to a
person, never a command, a path or an edit.
"""
