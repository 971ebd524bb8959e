# error: TypeCheckError
# line: 6
# match: different types

def f(x: int) -> int:
    xs = [1, "two", 3]
    return x


ENTRY = "f"
