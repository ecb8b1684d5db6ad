"""The app."""


def greet(name: str) -> str:
<<<<<<< HEAD
    return f"Good day, {name}"
=======
    return f"Hi there, {name}"
>>>>>>> cleanup


def farewell(name: str) -> str:
    return f"Bye, {name}"
