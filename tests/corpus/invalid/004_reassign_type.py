# error: TypeCheckError
# line: 8
# match: variable 'x'

def f(n: int) -> int:
    x = 1
    if n > 0:
        x = "one"  # bound before the branch: keeps its type (TorchScript's rule)
    return n


ENTRY = "f"
