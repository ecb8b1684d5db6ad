DEFAULTS = {
    "retries": 3,
    "timeout": 10
    "verbose": False,
}
