# error: NameResolutionError
# line: 8
# match: undefined

def f(n: int) -> int:
    for i in range(n):
        last = i * 2
    return last


ENTRY = "f"
