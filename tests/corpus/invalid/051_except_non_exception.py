# error: TypeCheckError
# line: 8
# match: except

def f(x: int) -> int:
    try:
        return x
    except int:
        return 0


ENTRY = "f"
