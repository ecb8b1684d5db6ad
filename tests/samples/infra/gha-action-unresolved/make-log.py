"""Writes the "Set up job" step of a GitHub Actions job whose workflow names an
action that does not exist, as the runner writes it: every line stamped with
DateTime.UtcNow.ToString("O") (Common/Logging.cs), the runner's own lines from
its source (Worker/JobExtension.cs "Current runner version: '…'", "Prepare
workflow directory"; Worker/ActionManager.cs "Prepare all required actions",
"Getting action download info"), and the service's 422 answer as the runner
prints it (`##[error]` + the message; the message as the runner's tests quote
it, Test/L0/Sdk/LaunchWebApi/LaunchHttpClientL0.cs)."""

import datetime as dt


def stamp() -> str:
    now = dt.datetime.now(dt.UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond:06d}0Z"


LINES = [
    "Current runner version: '2.330.0'",
    "Prepare workflow directory",
    "Prepare all required actions",
    "Getting action download info",
    "##[error]Unable to resolve action 'actions/chekout@v4', repository not found",
]
print("\n".join(f"{stamp()} {line}" for line in LINES))
