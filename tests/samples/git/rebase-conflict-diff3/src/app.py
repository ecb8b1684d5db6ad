"""The app."""


def greet(name: str) -> str:
<<<<<<< HEAD
    return f"Good day, {name}"
||||||| parent of 97f3189 (feature: friendlier greeting)
    return f"Hello, {name}"
=======
    return f"Hi there, {name}"
>>>>>>> 97f3189 (feature: friendlier greeting)


def farewell(name: str) -> str:
    return f"Bye, {name}"
