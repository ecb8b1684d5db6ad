from typing import Optional

import yaml_missing_lib


def port(env: dict[str, str]) -> int:
    return env.get("PORT")


def greet(name: Optional[str]) -> str:
    return "hi " + name


def total(xs: list[int]) -> int:
    result: int = "0"
    for x in xs:
        result += x
    return reslt


def config() -> object:
    return yaml_missing_lib.safe_load("a: 1")
