# error: TypeCheckError
# line: 6
# match: different types

def f(x: int) -> int:
    d = {1: "a", "b": "c"}
    return x


ENTRY = "f"
