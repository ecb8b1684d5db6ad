import os


class ConfigError(Exception):
    pass


def api_key() -> str:
    return os.environ["SHOP_API_KEY"]


def database_url() -> str:
    try:
        return os.environ["SHOP_DATABASE_URL"]
    except KeyError as exc:
        raise ConfigError("SHOP_DATABASE_URL is required") from exc


def region() -> str:
    return os.environ.get("SHOP_REGION", "eu")
