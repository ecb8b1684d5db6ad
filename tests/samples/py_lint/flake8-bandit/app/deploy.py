import subprocess

PASSWORD = "hunter2-prod"


def restart(service):
    subprocess.call("systemctl restart " + service, shell=True)
