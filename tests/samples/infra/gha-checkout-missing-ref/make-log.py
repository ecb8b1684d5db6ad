"""Runs the fetch that actions/checkout runs for `ref: stable-3.1` (src/ref-helper.ts
getRefSpec, src/git-source-provider.ts) against a local remote without that branch,
for real, and writes it as the checkout step of a GitHub Actions job log: runner
stamps (Common/Logging.cs), the step's group (Handlers/Handler.cs `Run NAME@REF`,
`with:` inputs), @actions/exec's `[command]` echo and its `The process '…' failed
with exit code N` error (core.setFailed -> `##[error]`), `Post job cleanup.`
(Handlers/Handler.cs), `Cleaning up orphan processes` (JobExtension.cs).
Run ./make-remote.sh first."""

import datetime as dt
import shutil
import subprocess


def stamp() -> str:
    now = dt.datetime.now(dt.UTC)
    return now.strftime("%Y-%m-%dT%H:%M:%S.") + f"{now.microsecond:06d}0Z"


git = shutil.which("git") or "git"
ref = "stable-3.1"
args = [
    "-c", "protocol.version=2", "fetch", "--no-tags", "--prune", "--no-recurse-submodules",
    "--depth=1", "origin", f"+refs/heads/{ref}*:refs/remotes/origin/{ref}*",
    f"+refs/tags/{ref}*:refs/tags/{ref}*",
]
run = subprocess.run([git, *args], cwd="work", capture_output=True, text=True)
lines = [
    "##[group]Run actions/checkout@v4",
    "with:",
    f"  ref: {ref}",
    "  fetch-depth: 1",
    "##[endgroup]",
    "##[group]Fetching the repository",
    f"[command]{git} {' '.join(args)}",
    *(run.stdout + run.stderr).splitlines(),
    "##[endgroup]",
]
if run.returncode:
    lines.append(f"##[error]The process '{git}' failed with exit code {run.returncode}")
lines += ["Post job cleanup.", "Cleaning up orphan processes"]
print("\n".join(f"{stamp()} {line}" for line in lines))
