"""Infrastructure failures: containers, clusters, deploys, CI, the network,
the disk, the environment.

Every record says in `hint["transient"]` whether the backoff retry (1 s,
2 s, 4 s) can help: connection refused/reset, DNS failures, timeouts, HTTP
5xx and 429 are transient; a missing variable, a permission, a full disk, a
bad deploy configuration or a crashing container are not, and the hint
carries what a human needs (`variable`, `path`, `host`, `status`,
`exit_code`, `resource`).

Precedence: the generic network rules here have the lowest priority of all
families (NETWORK_PRIORITY): an MCP client that cannot connect is
mcp_startup (rules/mcp.py), an LLM API's 429/5xx is prompt_delivery
(rules/agent.py), and both run first.
"""

from __future__ import annotations

import re
from collections.abc import Iterable
from typing import Any

from ..taxonomy import FailureType
from .base import Block, Hit, LineContext, match_above
from .registry import rule

PRIORITY = 30  # specific tools (docker, kubectl, terraform, curl, npm, pip)
NETWORK_PRIORITY = -10  # generic network lines, after every other family

TRANSIENT_KINDS = frozenset({"refused", "reset", "dns", "timeout", "http-5xx", "rate-limit"})


def transient(kind: str) -> bool:
    """Whether a failure of this kind is worth the backoff retry."""
    return kind in TRANSIENT_KINDS


def http_kind(status: int) -> str:
    if status == 429:
        return "rate-limit"
    if 500 <= status <= 599:
        return "http-5xx"
    return "http-4xx"


def _hint(kind: str, **extra: Any) -> dict[str, Any]:
    hint: dict[str, Any] = {"kind": kind, "transient": transient(kind)}
    hint.update({k: v for k, v in extra.items() if v is not None})
    return hint


def _host(url_or_host: str) -> str:
    rest = url_or_host.split("://", 1)[-1]
    return rest.split("/", 1)[0].strip("'\"")


# -- docker --------------------------------------------------------------------


@rule(
    id="infra.docker_daemon",
    category=FailureType.INFRA,
    tool="docker",
    pattern=r"Cannot connect to the Docker daemon at (?P<host>\S+?)\.? Is the docker daemon running\?",
    triggers=("Cannot connect to the Docker daemon",),
    url="https://docs.docker.com/engine/daemon/troubleshoot/",
    priority=PRIORITY,
)
def docker_daemon(m: re.Match[str], ctx: LineContext) -> Hit:
    """The Docker CLI cannot reach the daemon.

    What it detects: `Cannot connect to the Docker daemon at
    unix:///var/run/docker.sock. Is the docker daemon running?` (any
    docker / docker compose command when dockerd is not running or the
    socket is not reachable).

    Example output (`docker ps`, Docker 28.2.2, no daemon):
        Cannot connect to the Docker daemon at unix:///var/run/docker.sock. Is the docker daemon running?

    Recipe: infra, permanent: a retry will not start the daemon; escalated
    with the socket in hint["host"] (start dockerd / Docker Desktop, or set
    DOCKER_HOST).

    References: https://docs.docker.com/engine/daemon/troubleshoot/
    """
    return Hit(signal=ctx.line.strip(), hint=_hint("docker-daemon", host=m.group("host")))


_DOCKERFILE_AT = re.compile(r"^(?P<file>(?:[\w.@/-]*/)?[\w.-]*Dockerfile[\w.-]*):(?P<line>\d+)\s*$")
_BUILD_EXIT = re.compile(r"(?:exit code: |returned a non-zero code: )(?P<code>\d+)")
_BUILD_CMD = re.compile(
    r"process \"(?P<cmd>.+?)\" did not complete|The command '(?P<cmd2>.+?)' returned"
)


@rule(
    id="infra.docker_build",
    category=FailureType.INFRA,
    tool="docker",
    pattern=r"^ERROR: failed to solve: (?P<message>.+)$|^The command '.+' returned a non-zero code: \d+",
    triggers=("ERROR: failed to solve: ", "returned a non-zero code: "),
    url="https://docs.docker.com/reference/cli/docker/buildx/build/",
    priority=PRIORITY,
)
def docker_build(m: re.Match[str], ctx: LineContext) -> Hit:
    """A `docker build` step that failed.

    What it detects: BuildKit's `ERROR: failed to solve: process "/bin/sh -c
    npm ci" did not complete successfully: exit code: 1` (the location is
    the `Dockerfile:N` line BuildKit prints above it, with its `>>>`
    excerpt) and the legacy builder's `The command '/bin/sh -c x' returned a
    non-zero code: N`.

    Example output (`docker build --progress=plain .`; documented format):
        Dockerfile:4
        ...
        ERROR: failed to solve: process "/bin/sh -c npm ci --omit=dev" did not complete successfully: exit code: 1

    Recipe: infra, permanent: escalated at the Dockerfile step, with the
    step's command and exit code in the hint.

    References: https://docs.docker.com/reference/cli/docker/buildx/build/
    """
    file = line = None
    for prev in reversed(ctx.before(40)):
        at = _DOCKERFILE_AT.match(prev.strip())
        if at:
            file, line = at.group("file"), int(at.group("line"))
            break
    text = ctx.line
    code = _BUILD_EXIT.search(text)
    cmd = _BUILD_CMD.search(text)
    return Hit(
        signal=text.strip(),
        message=(m.group("message") or text).strip(),
        file=file,
        line=line,
        hint=_hint(
            "docker-build",
            exit_code=int(code.group("code")) if code else None,
            command=(cmd.group("cmd") or cmd.group("cmd2")) if cmd else None,
        ),
    )


@rule(
    id="infra.container_exited",
    category=FailureType.INFRA,
    tool="docker",
    pattern=(
        r"^\s*(?:Container (?P<container>[\w.-]+)|(?P<service>[\w.-]+[-_]\d+)) exited with code (?P<code>\d+)\s*$"
    ),
    triggers=("exited with code",),
    url="https://docs.docker.com/reference/cli/docker/compose/up/",
    priority=PRIORITY,
)
def container_exited(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A container (a compose service) that stopped with a non-zero code.

    What it detects: `docker compose up`'s `app-1 exited with code 1`
    (compose names a service's container NAME-N, or NAME_N in v1; "Container
    NAME exited with code N" too; a bare "process exited with code 1" is
    not a container).  Exit code 0 is a normal stop and is not reported;
    137 is a kill, usually the OOM killer, noted in the hint.

    Example output (`docker compose up`; documented format):
        app-1 exited with code 1

    Recipe: infra, permanent: escalated with the service and exit code; the
    service's last log lines (prefixed `app-1  |`) say why.

    References: https://docs.docker.com/reference/cli/docker/compose/up/
    """
    code = int(m.group("code"))
    if code == 0:
        return None
    return Hit(
        signal=ctx.line.strip(),
        hint=_hint(
            "container-exited",
            service=m.group("service") or m.group("container"),
            exit_code=code,
            oom_killed=True if code == 137 else None,
        ),
    )


# -- kubernetes / helm -----------------------------------------------------------

_POD_BAD = (
    "CrashLoopBackOff",
    "ImagePullBackOff",
    "ErrImagePull",
    "CreateContainerConfigError",
    "InvalidImageName",
    "OOMKilled",
    "RunContainerError",
)


@rule(
    id="infra.k8s_pod_status",
    category=FailureType.INFRA,
    tool="kubectl",
    pattern=(
        r"^(?P<pod>[a-z0-9][\w.-]*)\s+\d+/\d+\s+(?P<status>" + "|".join(_POD_BAD) + r")\s+\d+"
        r"|Back-off restarting failed container (?P<container>\S+) in pod (?P<bpod>[\w.-]+?)(?:_|\s|$)"
    ),
    triggers=(*_POD_BAD, "Back-off restarting failed container"),
    url="https://kubernetes.io/docs/tasks/debug/debug-application/debug-pods/",
    priority=PRIORITY,
)
def k8s_pod_status(m: re.Match[str], ctx: LineContext) -> Hit:
    """A pod that cannot run: CrashLoopBackOff, ImagePullBackOff and kin.

    What it detects: rows of `kubectl get pods` whose STATUS is
    CrashLoopBackOff, ImagePullBackOff, ErrImagePull,
    CreateContainerConfigError, InvalidImageName, OOMKilled or
    RunContainerError, and the kubelet event `Back-off restarting failed
    container X in pod Y` of `kubectl describe pod`.  One record per pod.

    Example output (`kubectl get pods`; documented format):
        checkout-7c9f8b6d5-4xk2p    0/1     CrashLoopBackOff   6 (83s ago)   9m12s

    Recipe: infra, permanent: escalated with the pod and status (a crash
    loop needs the container's logs; an image pull needs the image name or
    registry credentials fixed).

    References: https://kubernetes.io/docs/tasks/debug/debug-application/debug-pods/
    """
    pod = m.group("pod") or m.group("bpod")
    status = m.group("status") or "CrashLoopBackOff"
    return Hit(
        signal=ctx.line.strip(),
        message=f"pod {pod}: {status}",
        code=status,
        hint=_hint("k8s-pod", pod=pod, status=status, container=m.group("container")),
        key=("k8s-pod", pod),
    )


@rule(
    id="infra.k8s_probe",
    category=FailureType.INFRA,
    tool="kubectl",
    pattern=r"\b(?P<probe>Readiness|Liveness|Startup) probe failed: (?P<message>.+)$",
    triggers=("probe failed: ",),
    url="https://kubernetes.io/docs/tasks/configure-pod-container/configure-liveness-readiness-startup-probes/",
    priority=PRIORITY,
)
def k8s_probe(m: re.Match[str], ctx: LineContext) -> Hit:
    """A failing Kubernetes health check (readiness, liveness, startup probe).

    What it detects: the kubelet's `Readiness probe failed: HTTP probe failed
    with statuscode: 503`, `Liveness probe failed: Get "http://...":
    dial tcp ...: connect: connection refused` (an Unhealthy event in
    `kubectl describe pod` / `kubectl get events`).

    Example output (`kubectl describe pod checkout-...`; documented format):
        Warning  Unhealthy  95s (x3 over 115s)  kubelet  Readiness probe failed: HTTP probe failed with statuscode: 503

    Recipe: infra, permanent: the application does not answer its health
    check; escalated with the probe and its result (status code).

    References: https://kubernetes.io/docs/tasks/configure-pod-container/configure-liveness-readiness-startup-probes/
    """
    message = m.group("message").strip()
    status = re.search(r"statuscode: (\d{3})", message)
    probe = m.group("probe").lower()
    return Hit(
        signal=ctx.line.strip(),
        message=f"{m.group('probe')} probe failed: {message}",
        hint=_hint(
            "health-check",
            probe=probe,
            status=int(status.group(1)) if status else None,
        ),
        key=("k8s-probe", probe, message),
    )


@rule(
    id="infra.kubectl_connect",
    category=FailureType.INFRA,
    tool="kubectl",
    pattern=(
        r"The connection to the server (?P<host>\S+) was refused"
        r"|couldn't get current server API group list: .*dial tcp (?P<addr>[\w.:\[\]-]+): connect: connection refused"
    ),
    triggers=("The connection to the server ", "couldn't get current server API group list"),
    url="https://kubernetes.io/docs/tasks/access-application-cluster/configure-access-multiple-clusters/",
    priority=PRIORITY,
)
def kubectl_connect(m: re.Match[str], ctx: LineContext) -> Hit:
    """kubectl cannot reach the cluster's API server.

    What it detects: `The connection to the server localhost:8080 was
    refused - did you specify the right host or port?` and the
    `memcache.go ... couldn't get current server API group list ... connect:
    connection refused` lines kubectl logs before it (all one record).

    Example output (`kubectl get pods`, kubectl v1.32.4, no cluster):
        The connection to the server localhost:8080 was refused - did you specify the right host or port?

    Recipe: infra, transient (connection refused): backoff retry; when it
    persists the kubeconfig / cluster is the human's to fix.

    References: https://kubernetes.io/docs/reference/kubectl/troubleshooting/
    """
    host = m.group("host") or m.group("addr")
    return Hit(
        signal=ctx.line.strip(),
        message="kubectl cannot reach the API server (connection refused)",
        hint=_hint("refused", host=host),
        key=("kubectl-connect",),
    )


@rule(
    id="infra.deploy_failed",
    category=FailureType.INFRA,
    tool="deploy",
    pattern=(
        r"error: deployment \"(?P<deployment>[^\"]+)\" exceeded its progress deadline"
        r"|Error: (?P<helm>UPGRADE|INSTALLATION|ROLLBACK) FAILED: (?P<message>.+)$"
        r"|\b[Dd]eploy(?:ment)? failed\b(?P<rest>.*)$"
    ),
    triggers=("exceeded its progress deadline", " FAILED: ", "eployment failed", "eploy failed"),
    url="https://kubernetes.io/docs/concepts/workloads/controllers/deployment/#failed-deployment",
    priority=PRIORITY,
)
def deploy_failed(m: re.Match[str], ctx: LineContext) -> Hit:
    """A deploy that did not complete.

    What it detects: `kubectl rollout status`'s `error: deployment "x"
    exceeded its progress deadline`, helm's `Error: UPGRADE FAILED: ...` /
    `INSTALLATION FAILED` / `ROLLBACK FAILED`, and a plain "deployment
    failed" / "deploy failed" line from a deploy script.

    Example output (`kubectl rollout status deployment/checkout`; documented format):
        error: deployment "checkout" exceeded its progress deadline

    Recipe: infra, permanent: escalated (roll back or fix the release) with
    the deployment's name when printed.

    References: https://helm.sh/docs/helm/helm_upgrade/
    """
    return Hit(
        signal=ctx.line.strip(),
        hint=_hint(
            "deploy",
            deployment=m.group("deployment"),
            helm=m.group("helm").lower() if m.group("helm") else None,
        ),
    )


# -- terraform -------------------------------------------------------------------

_TF_HEADER = re.compile(r"^(?:│\s*)?(?P<level>Error|Warning): (?P<message>.+?)\s*$")
_TF_WITH = re.compile(r"^(?:│\s*)?\s*with (?P<resource>[\w.\[\]\"-]+),\s*$")
_TF_TRANSIENT = re.compile(
    r"StatusCode: (?:5\d\d|429)|\b(?:429|50[0234])\b|Throttl|RequestLimitExceeded|timeout|timed out"
    r"|connection reset|connection refused",
    re.IGNORECASE,
)


@rule(
    id="infra.terraform",
    category=FailureType.INFRA,
    tool="terraform",
    pattern=r"^(?:│\s*)?\s+on (?P<file>[^\s,]+\.tf(?:\.json)?) line (?P<line>\d+)(?:, in (?P<block>.+?))?:\s*$",
    triggers=(" line ",),
    url="https://developer.hashicorp.com/terraform/cli/commands/apply",
    priority=PRIORITY,
)
def terraform(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A Terraform error diagnostic (plan, apply, validate).

    What it detects: the diagnostic block `Error: <summary>` followed by
    `with aws_instance.web,` and `on main.tf line 10, in resource ...:`,
    with or without the `╷ │ ╵` box (colour / -no-color).  The record is
    placed at that file and line; a Warning block is not a failure.

    Example output (`terraform validate`, Terraform v1.11.4):
        │ Error: Reference to undeclared input variable
        │
        │   on main.tf line 11, in output "endpoint":

    Recipe: infra: a configuration error (undeclared variable, bad
    argument, an API's 4xx) is permanent and escalated at main.tf:N with
    the resource; a provider's 5xx / 429 / timeout is transient.

    References: https://developer.hashicorp.com/terraform/cli/commands/apply
    """
    header = None
    resource = None
    for prev in reversed(ctx.before(12)):
        if resource is None:
            w = _TF_WITH.match(prev)
            if w:
                resource = w.group("resource")
                continue
        h = _TF_HEADER.match(prev.strip() if not prev.startswith("│") else prev)
        if h:
            header = h
            break
    if header is None or header.group("level") != "Error":
        return None
    message = header.group("message")
    kind = "terraform-transient" if _TF_TRANSIENT.search(message) else "terraform"
    hint = _hint(kind, resource=resource, block=m.group("block"))
    hint["transient"] = kind == "terraform-transient"
    return Hit(
        signal=f"Error: {message}",
        message=message,
        file=m.group("file"),
        line=int(m.group("line")),
        hint=hint,
    )


# -- CI ----------------------------------------------------------------------------

_GROUP_RUN = re.compile(r"##\[group\]Run (?P<step>.+?)\s*$")


@rule(
    id="infra.github_actions",
    category=FailureType.INFRA,
    tool="github-actions",
    pattern=r"##\[error\]Process completed with exit code (?P<code>\d+)\.?",
    triggers=("##[error]Process completed with exit code",),
    url="https://docs.github.com/en/actions/monitoring-and-troubleshooting-workflows/using-workflow-run-logs",
    priority=PRIORITY,
)
def github_actions(m: re.Match[str], ctx: LineContext) -> Hit:
    """A GitHub Actions step that failed (the CI pipeline went red).

    What it detects: `##[error]Process completed with exit code N.` in a
    job's log, with the step's command from the `##[group]Run ...` line
    above it.

    Example output (raw job log; documented format):
        2026-01-20T10:25:04.4410000Z ##[error]Process completed with exit code 1.

    Recipe: infra, permanent: escalated with the step and exit code.  When
    the step's own output holds a more specific failure (a test, a compile
    error), that record says what to fix; this one says which step failed.
    Confidence 0.7 for that reason.

    References: https://docs.github.com/en/actions/monitoring-and-troubleshooting-workflows/using-workflow-run-logs
    """
    g = match_above(ctx, _GROUP_RUN, 200, search=True)
    step = g.group("step") if g else None
    signal = ctx.line[ctx.line.index("##[error]") :].strip()
    return Hit(
        signal=signal,
        message=signal.removeprefix("##[error]"),
        confidence=0.7,
        hint=_hint("ci", exit_code=int(m.group("code")), step=step),
    )


# -- environment, permissions, disk ------------------------------------------------

_BASH_ERRORS = (
    "command not found",
    "No such file or directory",
    "Permission denied",
    "syntax error",
    "bad substitution",
    "ambiguous redirect",
    "is a directory",
    "readonly variable",
    "integer expression expected",
)


@rule(
    id="infra.env_not_set",
    category=FailureType.INFRA,
    tool="shell",
    pattern=(
        r"^(?P<file>[^\s:][^:]*): line (?P<line>\d+): (?P<var>[A-Za-z_]\w{0,127}): (?P<message>.+)$"
        r"|(?:[Ee]nvironment variable|[Ee]nv var)s? [`'\"]?(?P<evar>[A-Z_][A-Z0-9_]{0,127})[`'\"]? (?:is )?(?:not set|missing|required|undefined|empty)"
        r"|[Mm]issing (?:required )?environment variables?:? [`'\"]?(?P<mvar>[A-Z_][A-Z0-9_]{0,127})"
        r"|(?<![\w`'\"])[`'\"]?(?P<pvar>[A-Z_][A-Z0-9_]{0,127})[`'\"]? (?:environment variable|env var) (?:is )?(?:not set|missing|required|undefined)"
    ),
    triggers=(": line ", "nvironment variable", "nv var"),
    url="https://www.gnu.org/software/bash/manual/html_node/Shell-Parameter-Expansion.html",
    priority=PRIORITY,
)
def env_not_set(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """A required environment variable that is not set.

    What it detects: bash's `${VAR:?}` / `${VAR:?message}` failure
    (`deploy.sh: line 3: DEPLOY_TOKEN: parameter null or not set`, or the
    script's own message), `set -u`'s `VAR: unbound variable` for an
    upper-case name, and the common wording of programs ("environment
    variable X is not set", "Missing required environment variable: X",
    "X environment variable is required").  Other bash errors of the same
    shape (command not found, no such file) are not matched.

    Example output (`bash deploy.sh`, GNU bash 5.2):
        deploy.sh: line 3: DEPLOY_TOKEN: parameter null or not set

    Recipe: infra, permanent: escalated with hint["variable"] (and the
    script line that requires it).

    References: https://www.gnu.org/software/bash/manual/html_node/Shell-Parameter-Expansion.html
    """
    var = m.group("var")
    file = line = None
    if var:
        message = m.group("message").strip()
        if any(e in message for e in _BASH_ERRORS):
            return None
        shape = message in ("parameter null or not set", "parameter not set")
        if not shape and not (message == "unbound variable" or var.isupper()):
            return None
        file, line = m.group("file"), int(m.group("line"))
        if file.startswith(("bash", "sh", "/bin/", "/usr/bin/")) and not ctx.exists(file):
            file = line = None
    else:
        var = m.group("evar") or m.group("mvar") or m.group("pvar")
    return Hit(
        signal=ctx.line.strip(),
        message=f"environment variable {var} is not set",
        file=file,
        line=line,
        hint=_hint("env", variable=var),
    )


# A Python exception line: the python.traceback rule reports it (as infra
# for PermissionError / ENOSPC) at the frame that raised it, which says more
# than the path alone.
_PY_EXCEPTION = re.compile(r"^\s*[\w.]*(?:Error|Exception): ")


@rule(
    id="infra.permission_denied",
    category=FailureType.INFRA,
    tool="os",
    pattern=(
        r"(?:^|(?<=[\s:'\"‘’]))(?P<path>[^\s:'\"‘’]+)['\"’]?: Permission denied\s*$"
        r"|EACCES: permission denied, \w+ '(?P<epath>[^']+)'"
        r"|Permission denied \((?P<auth>publickey[^)]*)\)"
        r"|\[Errno 13\] Permission denied: '(?P<ppath>[^']+)'"
    ),
    triggers=("Permission denied", "permission denied"),
    url="https://man7.org/linux/man-pages/man3/errno.3.html",
    priority=PRIORITY,
)
def permission_denied(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """Permission denied (EACCES) on a file, a script, a socket or SSH.

    What it detects: `bash: line 1: ./deploy.sh: Permission denied`, node's
    `EACCES: permission denied, open '/var/log/app.log'`, Python's
    `[Errno 13] Permission denied: 'x'`, and `Permission denied
    (publickey)` from ssh / git over ssh (infra, not a branch problem).

    Example output (`bash -c ./deploy.sh`, a script without the x bit):
        bash: line 1: ./deploy.sh: Permission denied

    Recipe: infra, permanent: escalated with hint["path"] (or the SSH
    key problem); a script in the workspace that is not executable is
    named so the human can `chmod +x` it.

    References: https://man7.org/linux/man-pages/man3/errno.3.html
    """
    if m.group("auth"):
        return Hit(signal=ctx.line.strip(), hint=_hint("permission", auth=m.group("auth")))
    if m.group("ppath") and _PY_EXCEPTION.match(ctx.line):
        return None
    path = (m.group("path") or m.group("epath") or m.group("ppath") or "").strip()
    file = path if path and ctx.exists(path) else None
    return Hit(
        signal=ctx.line.strip(),
        message=f"{path}: Permission denied" if path else ctx.line.strip(),
        file=file,
        hint=_hint("permission", path=path or None),
    )


_WRITING = re.compile(
    r"(?:error writing|cannot (?:create|write|open)(?: to)?|write) ['\"‘]?(?P<path>/[^'\"’:]+)"
)


@rule(
    id="infra.disk_full",
    category=FailureType.INFRA,
    tool="os",
    pattern=r"No space left on device|\bENOSPC\b",
    triggers=("No space left on device", "ENOSPC"),
    url="https://man7.org/linux/man-pages/man3/errno.3.html",
    priority=PRIORITY,
)
def disk_full(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """The disk (or a tmpfs, or a quota) is full.

    What it detects: `No space left on device` (ENOSPC) from any tool:
    coreutils, compilers, docker, pip, npm (`ENOSPC: no space left on
    device, write`).

    Example output (`dd ... of=/tmp/fl-tiny/artifact.tar` on a 64k tmpfs):
        dd: error writing '/tmp/fl-tiny/artifact.tar': No space left on device

    Recipe: infra, permanent: escalated with the path being written
    (hint["path"]) so a human can free space there (`df -h` on it).

    References: https://man7.org/linux/man-pages/man3/errno.3.html
    """
    if _PY_EXCEPTION.match(ctx.line) and "[Errno 28]" in ctx.line:
        return None
    path = _WRITING.search(ctx.line)
    return Hit(
        signal=ctx.line.strip(),
        message="No space left on device",
        hint=_hint("disk-full", path=path.group("path") if path else None),
        key=("disk-full", path.group("path") if path else ""),
    )


# -- HTTP clients and package managers --------------------------------------------

_CURL_KINDS = {
    5: "dns",  # could not resolve proxy
    6: "dns",
    7: "refused",
    28: "timeout",
    35: "tls",
    51: "tls",
    52: "reset",
    53: "tls",
    54: "tls",
    55: "reset",
    56: "reset",
    58: "tls",
    59: "tls",
    60: "tls",
    77: "tls",
    83: "tls",
    90: "tls",
    91: "tls",
}
_CURL_HOST = re.compile(
    r"resolve host: (?P<h1>[\w.-]+)|connect to (?P<h2>[\w.:\[\]-]+) port (?P<port>\d+)|Could not resolve proxy: (?P<h3>[\w.-]+)"
)


@rule(
    id="infra.curl",
    category=FailureType.INFRA,
    tool="curl",
    pattern=r"^curl: \((?P<code>\d+)\) (?P<message>.+)$",
    triggers=("curl: (",),
    url="https://curl.se/libcurl/c/libcurl-errors.html",
    priority=PRIORITY,
)
def curl(m: re.Match[str], ctx: LineContext) -> Hit:
    """curl's own error line, `curl: (N) message`.

    What it detects: every curl exit error: (6) could not resolve host, (7)
    failed to connect (refused), (28) operation timed out, (22) the
    requested URL returned error: 503 (with `-f`), (35)/(60) TLS / SSL
    certificate problems, (52)/(56) empty reply / connection reset.

    Example output (`curl -fsS http://127.0.0.1:18503/healthz`, curl 7.88.1):
        curl: (22) The requested URL returned error: 503

    Recipe: infra: DNS, refused, reset, timeout, HTTP 5xx and 429 are
    transient (backoff retry 1 s, 2 s, 4 s); TLS problems and other 4xx are
    permanent and escalated with the host / status.

    References: https://curl.se/libcurl/c/libcurl-errors.html
    """
    code = int(m.group("code"))
    message = m.group("message").strip()
    status = re.search(r"returned error: (\d{3})", message)
    kind = _CURL_KINDS.get(code, "http" if status else "network")
    if status:
        kind = http_kind(int(status.group(1)))
    h = _CURL_HOST.search(message)
    host = None
    if h:
        host = h.group("h1") or h.group("h3") or f"{h.group('h2')}:{h.group('port')}"
    return Hit(
        signal=ctx.line.strip(),
        message=message,
        code=f"curl{code}",
        hint=_hint(
            kind, host=host, status=int(status.group(1)) if status else None, curl_exit=code
        ),
    )


_NPM_NETWORK = ("ECONNREFUSED", "ECONNRESET", "ETIMEDOUT", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH")
_NPM_KIND = {
    "ECONNREFUSED": "refused",
    "ECONNRESET": "reset",
    "ETIMEDOUT": "timeout",
    "ENOTFOUND": "dns",
    "EAI_AGAIN": "dns",
    "ENETUNREACH": "refused",
}
_NPM_FETCH = re.compile(r"request to (?P<url>\S+) failed, reason: (?P<reason>.+)$")


class _NpmBlock:
    """The `npm error ...` lines that follow `npm error code E...`."""

    max_lines = 60

    def __init__(self, code: str, ctx: LineContext) -> None:
        self.code = code
        self.signal = ctx.line.strip()
        self.log_line = ctx.line_no
        self.url: str | None = None
        self.reason: str | None = None

    def feed(self, line: str, line_no: int) -> bool:
        if not line.startswith(("npm error", "npm ERR!")):
            return False
        f = _NPM_FETCH.search(line)
        if f and self.url is None:
            self.url, self.reason = f.group("url"), f.group("reason").strip()
        return True

    def finish(self) -> Iterable[Hit]:
        kind = _NPM_KIND.get(self.code, "network")
        message = f"npm: request to {self.url} failed: {self.reason}" if self.url else self.signal
        yield Hit(
            signal=self.signal,
            message=message,
            code=self.code,
            log_line=self.log_line,
            hint=_hint(kind, host=_host(self.url) if self.url else None, url=self.url),
        )


@rule(
    id="infra.npm_network",
    category=FailureType.INFRA,
    tool="npm",
    pattern=r"^npm (?:error|ERR!) code (?P<code>" + "|".join(_NPM_NETWORK) + r")\s*$",
    triggers=("npm error code E", "npm ERR! code E"),
    url="https://docs.npmjs.com/common-errors",
    priority=PRIORITY,
)
def npm_network(m: re.Match[str], ctx: LineContext) -> Block:
    """npm cannot reach its registry.

    What it detects: `npm error code ECONNREFUSED` (ECONNRESET, ETIMEDOUT,
    ENOTFOUND, EAI_AGAIN) and the `npm error` lines after it, of which
    `FetchError: request to URL failed, reason: ...` names the registry; the
    whole report is one record.

    Example output (`npm view left-pad --registry http://127.0.0.1:9/`, npm 10):
        npm error code ECONNREFUSED
        npm error FetchError: request to http://127.0.0.1:9/left-pad failed, reason: connect ECONNREFUSED 127.0.0.1:9

    Recipe: infra, transient: backoff retry; the registry host is in the
    hint for the escalation when it persists (proxy, .npmrc registry).

    References: https://docs.npmjs.com/common-errors
    """
    return _NpmBlock(m.group("code"), ctx)


@rule(
    id="infra.pip_network",
    category=FailureType.INFRA,
    tool="pip",
    pattern=(
        r"WARNING: Retrying \(Retry\(total=\d+.*after connection broken by '(?P<exc>\w+)\((?P<message>.*)\)': (?P<path>\S+)"
        r"|^ERROR: (?:Could not find a version that satisfies the requirement|No matching distribution found for) (?P<req>\S+)"
    ),
    triggers=(
        "after connection broken by",
        "ERROR: Could not find a version",
        "ERROR: No matching distribution",
    ),
    url="https://pip.pypa.io/en/stable/topics/configuration/",
    priority=PRIORITY,
)
def pip_network(m: re.Match[str], ctx: LineContext) -> Hit | None:
    """pip cannot reach its package index.

    What it detects: pip's `WARNING: Retrying (Retry(total=N, ...)) after
    connection broken by 'NewConnectionError(...: [Errno 111] Connection
    refused)': /simple/pkg/`, and the `ERROR: Could not find a version
    that satisfies the requirement` / `No matching distribution found` that
    follow it (the package is not missing: the index was unreachable).
    Without a connection warning before it, "No matching distribution" is
    left to the other rules (a wrong package name is not infra).

    Example output (`pip download --index-url http://127.0.0.1:9/simple requests`, pip 23.2):
        WARNING: Retrying (Retry(total=0, ...)) after connection broken by 'NewConnectionError(...: Failed to establish a new connection: [Errno 111] Connection refused')': /simple/requests/

    Recipe: infra, transient: backoff retry; the index URL (from the
    "Looking in indexes:" line) is in the hint.

    References: https://pip.pypa.io/en/stable/topics/configuration/
    """
    before = ctx.before(60)
    index = None
    for prev in reversed(before):
        if prev.startswith("Looking in indexes: "):
            index = prev.split(": ", 1)[1].split(",")[0].strip()
            break
    if m.group("req") and not any("after connection broken by" in p for p in before):
        return None
    text = m.group("message") or ""
    kind = "refused"
    if "Name or service not known" in text or "resolution" in text:
        kind = "dns"
    elif "timed out" in text.lower() or "Timeout" in (m.group("exc") or ""):
        kind = "timeout"
    return Hit(
        signal=ctx.line.strip(),
        message=f"pip cannot reach the package index {index or ''}".strip(),
        hint=_hint(kind, host=_host(index) if index else None, index=index),
        key=("pip-network", index or ""),
    )


# -- generic network -----------------------------------------------------------

_NET_PATTERNS: tuple[tuple[str, re.Pattern[str]], ...] = (
    ("dns", re.compile(r"Could not resolve host:? '?(?P<host>[\w.-]+)")),
    ("dns", re.compile(r"getaddrinfo (?:ENOTFOUND|EAI_AGAIN) (?P<host>[\w.-]+)")),
    (
        "dns",
        re.compile(
            r"Temporary failure in name resolution|Name or service not known|nodename nor servname provided|no such host"
        ),
    ),
    ("refused", re.compile(r"connect ECONNREFUSED (?P<host>[\w.:\[\]-]+)")),
    (
        "refused",
        re.compile(
            r"(?:dial tcp (?P<host>[\w.:\[\]-]+): )?connect: connection refused|Connection refused|connection refused"
        ),
    ),
    (
        "reset",
        re.compile(r"Connection reset by peer|read ECONNRESET|socket hang up|connection reset"),
    ),
    (
        "timeout",
        re.compile(
            r"connect ETIMEDOUT (?P<host>[\w.:\[\]-]+)|Connection timed out|Operation timed out|i/o timeout"
        ),
    ),
    ("refused", re.compile(r"Network is unreachable|No route to host|ENETUNREACH|EHOSTUNREACH")),
    (
        "tls",
        re.compile(
            r"SSL certificate problem: .+|certificate verify failed|CERT_HAS_EXPIRED|UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN|DEPTH_ZERO_SELF_SIGNED_CERT|x509: certificate"
        ),
    ),
    (
        "http",
        re.compile(
            r"\b(?:HTTP(?:/[\d.]+)?|[Ss]tatus(?: code)?:?|returned error:?|responded with) (?P<status>5\d\d|429)\b"
        ),
    ),
    (
        "http",
        re.compile(
            r"\b(?P<status>5\d\d|429) (?:Service Unavailable|Bad Gateway|Gateway Time-?out|Internal Server Error|Too Many Requests)\b"
        ),
    ),
)
_URL = re.compile(r"(?:https?|ssh|git)://[^\s'\"<>)]+")


_STATUS_PREFIXES = (
    "HTTP",
    "HTTP/1.0",
    "HTTP/1.1",
    "HTTP/2",
    "HTTP/2.0",
    "HTTP/3",
    "HTTP/3.0",
    "tatus",
    "tatus:",
    "tatus code",
    "tatus code:",
)


@rule(
    id="infra.network",
    category=FailureType.INFRA,
    tool="network",
    pattern=(
        r"Could not resolve host|getaddrinfo E|Temporary failure in name resolution|Name or service not known"
        r"|nodename nor servname provided|no such host|ECONNREFUSED|[Cc]onnection refused|Connection reset by peer"
        r"|ECONNRESET|socket hang up|connection reset|ETIMEDOUT|Connection timed out|Operation timed out|i/o timeout"
        r"|Network is unreachable|No route to host|ENETUNREACH|EHOSTUNREACH|SSL certificate problem"
        r"|certificate verify failed|CERT_HAS_EXPIRED|UNABLE_TO_VERIFY_LEAF_SIGNATURE|SELF_SIGNED_CERT_IN_CHAIN"
        r"|DEPTH_ZERO_SELF_SIGNED_CERT|x509: certificate"
        r"|\b(?:HTTP(?:/(?:1\.[01]|[23](?:\.0)?))?|[Ss]tatus(?: code)?:?|returned error:?|responded with) (?:5\d\d|429)\b"
        r"|\b(?:5\d\d|429) (?:Service Unavailable|Bad Gateway|Gateway Time-?out|Internal Server Error|Too Many Requests)\b"
    ),
    triggers=(
        "resolve host",
        "getaddrinfo E",
        "name resolution",
        "Name or service not known",
        "nodename nor servname",
        "no such host",
        "ECONNREFUSED",
        "onnection refused",
        "Connection reset by peer",
        "ECONNRESET",
        "socket hang up",
        "connection reset",
        "ETIMEDOUT",
        "Connection timed out",
        "Operation timed out",
        "i/o timeout",
        "Network is unreachable",
        "No route to host",
        "ENETUNREACH",
        "EHOSTUNREACH",
        "SSL certificate problem",
        "certificate verify failed",
        "CERT_HAS_EXPIRED",
        "UNABLE_TO_VERIFY_LEAF_SIGNATURE",
        "SELF_SIGNED_CERT_IN_CHAIN",
        "DEPTH_ZERO_SELF_SIGNED_CERT",
        "x509: certificate",
        # An HTTP status is only a failure as 5xx or 429 right after HTTP/x or
        # "status": the triggers spell those prefixes out, so request logs
        # (`"GET / HTTP/1.1" 200`) never reach the pattern.
        *(f"{p} {c}" for p in _STATUS_PREFIXES for c in ("5", "429")),
        "returned error",
        "responded with",
        "Service Unavailable",
        "Bad Gateway",
        "Gateway Time",
        "Internal Server Error",
        "Too Many Requests",
    ),
    url="https://man7.org/linux/man-pages/man3/errno.3.html",
    priority=NETWORK_PRIORITY,
)
def network(m: re.Match[str], ctx: LineContext) -> Hit:
    """A network failure printed by any program (the generic net).

    What it detects: DNS failures (`Could not resolve host: x`, `getaddrinfo
    ENOTFOUND x`, `Temporary failure in name resolution`), connection
    refused / reset / timed out (`connect ECONNREFUSED 127.0.0.1:5432`,
    `Connection reset by peer`, `i/o timeout`), unreachable networks, TLS
    certificate problems and HTTP 5xx / 429 statuses, e.g. git's `fatal:
    unable to access 'https://x/': Could not resolve host: x`.  Lines of one
    outage (same kind, same host) are one record.

    Example output (`git ls-remote https://git.example.invalid/team/app.git`, git 2.39.5):
        fatal: unable to access 'https://git.example.invalid/team/app.git/': Could not resolve host: git.example.invalid

    Recipe: infra: DNS, refused, reset, timeouts, 5xx and 429 are transient
    (backoff retry); TLS problems are permanent (escalated with the host).

    References: https://man7.org/linux/man-pages/man3/errno.3.html
    """
    line = ctx.line
    kind, host, status = "network", None, None
    for k, pattern in _NET_PATTERNS:
        found = pattern.search(line)
        if found is None:
            continue
        kind = k
        groups = found.groupdict()
        host = groups.get("host")
        if groups.get("status"):
            status = int(groups["status"])
            kind = http_kind(status)
        break
    url = _URL.search(line)
    if host is None and url:
        host = _host(url.group(0))
    return Hit(
        signal=line.strip(),
        hint=_hint(
            kind, host=host, status=status, url=url.group(0).rstrip("/.,:") if url else None
        ),
        key=("network", kind, host or ""),
    )
