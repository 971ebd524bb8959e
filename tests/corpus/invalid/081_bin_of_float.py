# error: TypeCheckError
# line: 7
# match: bin


def f(x: float) -> str:
    return bin(x)


ENTRY = "f"
