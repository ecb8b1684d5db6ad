"""Infra rules for containers and clusters: docker, kubernetes, helm, deploys."""

from __future__ import annotations

import re

from ...lazyre import lazy_compile
from ...taxonomy import FailureType
from ..base import Hit, LineContext, lines_above
from ..registry import rule
from .common import (
    PRIORITY,
    infra_hint,
)

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
    return Hit(signal=ctx.line.strip(), hint=infra_hint("docker-daemon", host=m.group("host")))


_DOCKERFILE_AT = lazy_compile(
    r"^(?P<file>(?:[\w.@/-]*/)?[\w.-]*Dockerfile[\w.-]*):(?P<line>\d+)\s*$"
)
_BUILD_EXIT = lazy_compile(r"(?:exit code: |returned a non-zero code: )(?P<code>\d+)")
_BUILD_CMD = lazy_compile(
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
    for prev in lines_above(ctx, 40):
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
        hint=infra_hint(
            "docker-build",
            exit_code=int(code.group("code")) if code else None,
            # not "command": that key is the run's own command line (re-run to verify)
            step_command=(cmd.group("cmd") or cmd.group("cmd2")) if cmd else None,
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
        hint=infra_hint(
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
        hint=infra_hint("k8s-pod", pod=pod, status=status, container=m.group("container")),
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
        hint=infra_hint(
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
        hint=infra_hint("refused", host=host),
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
        hint=infra_hint(
            "deploy",
            deployment=m.group("deployment"),
            helm=m.group("helm").lower() if m.group("helm") else None,
        ),
    )
