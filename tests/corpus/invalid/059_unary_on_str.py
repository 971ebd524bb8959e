# error: TypeCheckError
# line: 6
# match: unary

def f(s: str) -> str:
    return -s


ENTRY = "f"
