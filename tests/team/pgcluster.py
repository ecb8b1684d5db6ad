"""A throwaway PostgreSQL cluster for the team-history tests: `initdb` and
`pg_ctl` (Debian's postgresql package, scripts/setup.d/70-postgres.sh) on a
free loopback port, its socket in its own folder, run as the `postgres` user
when the tests run as root (initdb refuses root).  Never a mock."""

from __future__ import annotations

import contextlib
import os
import pwd
import shutil
import socket
import subprocess
import tempfile
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

USER = "fl"


def _bindir() -> Path | None:
    found = shutil.which("pg_ctl")
    if found:
        return Path(found).parent
    for base in sorted(Path("/usr/lib/postgresql").glob("*/bin"), reverse=True):
        if (base / "pg_ctl").is_file():
            return base
    return None


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return int(s.getsockname()[1])


class Cluster:
    def __init__(self, root: Path, bindir: Path) -> None:
        self.root = root
        self.data = root / "data"
        self.bindir = bindir
        self.port = _free_port()
        self._as_postgres = os.geteuid() == 0

    def _run(self, *argv: str, check: bool = True) -> subprocess.CompletedProcess[str]:
        args = [str(self.bindir / argv[0]), *argv[1:]]
        kwargs: dict[str, object] = {}
        if self._as_postgres:
            pw = pwd.getpwnam("postgres")
            kwargs = {"user": pw.pw_uid, "group": pw.pw_gid, "extra_groups": []}
        return subprocess.run(
            args,
            capture_output=True,
            text=True,
            timeout=120,
            check=check,
            start_new_session=True,
            env={"PATH": os.environ.get("PATH", ""), "LC_ALL": "C", "TZ": "UTC"},
            cwd=self.root,
            **kwargs,  # type: ignore[arg-type]
        )

    def init(self) -> None:
        if self._as_postgres:
            pw = pwd.getpwnam("postgres")
            os.chown(self.root, pw.pw_uid, pw.pw_gid)
        self._run(
            "initdb",
            "-D",
            str(self.data),
            "-A",
            "trust",
            "-U",
            USER,
            "-E",
            "UTF8",
            "--locale=C",
            "--no-sync",
        )

    def start(self) -> None:
        opts = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c fsync=off"
        self._run(
            "pg_ctl",
            "-D",
            str(self.data),
            "-o",
            opts,
            "-l",
            str(self.root / "log"),
            "-w",
            "-t",
            "60",
            "start",
        )

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "-t", "60", "stop", check=False)

    def url(self, db: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{db}"

    def new_database(self) -> str:
        """A fresh database of this cluster (each test its own), its URL."""
        import psycopg

        name = f"t_{uuid.uuid4().hex[:12]}"
        with psycopg.connect(self.url(), autocommit=True) as conn:
            conn.execute(f'CREATE DATABASE "{name}"')
        return self.url(name)


@contextlib.contextmanager
def cluster() -> Iterator[Cluster]:
    bindir = _bindir()
    if bindir is None:
        pytest.fail("PostgreSQL's server is not installed: bash scripts/setup.d/70-postgres.sh")
    root = Path(tempfile.mkdtemp(prefix="faultlens-pg-"))
    os.chmod(root, 0o755)
    c = Cluster(root, bindir)
    try:
        c.init()
        c.start()
        yield c
    finally:
        c.stop("immediate")
        shutil.rmtree(root, ignore_errors=True)
