# error: TypeCheckError
# line: 6
# match: raise

def f(x: int) -> int:
    raise


ENTRY = "f"
