"""The app."""


def greet(name: str) -> str:
<<<<<<< HEAD
    return f"Howdy, {name}"
=======
    return f"Hey, {name}"
>>>>>>> e2a6f11228762d40143e6be851ad833072222631


def farewell(name: str) -> str:
    return f"Bye, {name}"
