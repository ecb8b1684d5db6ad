def read_port(cfg):
    try:
        return int(cfg["port"])
    except KeyError as exc:
        raise RuntimeError("port is not configured") from exc


read_port({})
