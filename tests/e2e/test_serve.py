"""`faultlens serve`: stdio (the default, `--stdio` accepted), `--tcp HOST:PORT`,
a fast `initialize`, logs on stderr only.
"""

from __future__ import annotations

import asyncio
import re
import subprocess
import sys
import time
from pathlib import Path

import pytest_lsp
from lsprotocol import types as T

from .conftest import TIMEOUT, capabilities, stop, uri

FAULTLENS = [sys.executable, "-m", "faultlens.cli"]


async def test_stdio_initialize_is_answered_fast(tmp_path: Path):
    client = pytest_lsp.make_test_lsp_client()
    began = time.monotonic()
    await client.start_io(*FAULTLENS, "serve", "--stdio")
    try:
        result = await asyncio.wait_for(
            client.initialize_session(
                T.InitializeParams(capabilities=capabilities(), root_uri=uri(tmp_path))
            ),
            TIMEOUT,
        )
        latency = time.monotonic() - began
        assert result.server_info is not None and result.server_info.name == "faultlens"
        commands = result.capabilities.execute_command_provider.commands
        assert {"faultlens.run", "faultlens.applyRecipe", "faultlens.clear"} <= set(commands)
        print(f"initialize answered {latency:.2f}s after spawning the server")
        assert latency < 10  # generous: CI machines are slow; measured ~1 s on an idle core
    finally:
        await stop(client)
        await client.stop()


def listening(proc: subprocess.Popen[bytes]) -> tuple[int, str]:
    """The port and token `serve --tcp` prints when it listens."""
    assert proc.stdout is not None
    line = proc.stdout.readline().decode()
    m = re.search(r"listening on 127\.0\.0\.1:(\d+), one client; token (\S+)", line)
    assert m, line
    return int(m.group(1)), m.group(2)


async def test_tcp_serves_one_client_with_its_token(tmp_path: Path):
    proc = subprocess.Popen(
        [*FAULTLENS, "serve", "--tcp", "127.0.0.1:0"],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
    )
    client = pytest_lsp.make_test_lsp_client()
    try:
        port, token = await asyncio.wait_for(asyncio.to_thread(listening, proc), TIMEOUT)
        await client.start_tcp("127.0.0.1", port)
        result = await asyncio.wait_for(
            client.initialize_session(
                T.InitializeParams(
                    capabilities=capabilities(),
                    root_uri=uri(tmp_path),
                    initialization_options={"token": token},
                )
            ),
            TIMEOUT,
        )
        assert result.server_info.name == "faultlens"
        await asyncio.wait_for(client.shutdown_async(None), TIMEOUT)
        client.exit(None)
        assert proc.wait(TIMEOUT) == 0
        assert proc.stdout is not None and proc.stdout.read() == b""  # the rest on stderr
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
        await client.stop()


def test_a_bad_tcp_address_is_a_usage_error():
    done = subprocess.run(
        [*FAULTLENS, "serve", "--tcp", "nowhere"],
        capture_output=True,
        text=True,
        timeout=60,
        stdin=subprocess.DEVNULL,
    )
    assert done.returncode == 2 and "HOST:PORT" in done.stderr and done.stdout == ""
