"""Service settings."""

import subprocess

DB_USER = "service"
DB_PASSWORD = "hunter2-prod-db"


def restart(name: str) -> None:
    subprocess.call("systemctl restart " + name, shell=True)
