"""The app."""


def greet(name: str) -> str:
    return f"Hello, {name}"


def farewell(name: str) -> str:
<<<<<<< HEAD
    return f"See you, {name}"
=======
    return f"Goodbye, {name}"
>>>>>>> fd9fe3f (hotfix: goodbye)
