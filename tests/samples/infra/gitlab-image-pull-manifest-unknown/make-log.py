"""Writes a GitLab job that fails in "Preparing the docker executor" because
the image's tag does not exist, as gitlab-runner writes it: sections
(shells/bash.go, `section_start:TS:NAME\\r\\e[0K`), the pull manager's lines
(executors/docker/internal/pull/manager.go: "Pulling docker image %s ...",
`Failed to pull image with policy %q: %v`, `failed to pull image %q with
specified policies %v: %w`), the build logger's colours and prefixes
(common/buildlogger/internal/tee.go: `WARNING: `, `ERROR: `), the job's verdict
(common/build.go `Job failed: `), and the Docker daemon's answer for a
missing tag (`Error response from daemon: manifest for IMAGE not found:
manifest unknown: manifest unknown`, as Docker documents it)."""

import time

CLEAR, RESET = "\x1b[0K", "\x1b[0;m"
IMAGE = "python:3.99-slim"
DAEMON = f"Error response from daemon: manifest for {IMAGE} not found: manifest unknown: manifest unknown"
ts = int(time.time())
out = [
    f"{CLEAR}\x1b[36;1mRunning with gitlab-runner 18.3.0 (1b659122)\x1b[0;m",
    f"section_start:{ts}:prepare_executor\r{CLEAR}{CLEAR}\x1b[36;1mPreparing the \"docker\" executor{RESET}",
    f"{RESET}{CLEAR}Using Docker executor with image {IMAGE} ...",
    f"{RESET}{CLEAR}Pulling docker image {IMAGE} ...",
    f"{RESET}\x1b[0;33mWARNING: Failed to pull image with policy \"always\": {DAEMON} (manager.go:251:0s)",
    f"{RESET}section_end:{ts}:prepare_executor\r{CLEAR}"
    f"\x1b[31;1mERROR: Job failed: failed to pull image \"{IMAGE}\" with specified policies [always]: "
    f"{DAEMON} (manager.go:251:0s)",
    RESET,
]
print("\n".join(out))
