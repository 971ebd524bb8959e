# error: UnsupportedError
# line: 7
# match: needs an object and a constant attribute name


def f(name: str) -> bool:
    return hasattr("abc", name)


ENTRY = "f"
