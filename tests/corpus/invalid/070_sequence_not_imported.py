# error: NameResolutionError
# line: 6
# match: unknown type 'Sequence' in annotation (name is not defined) (import it: from typing

def f(n: int) -> int:
    d: Sequence[int] = [n]
    return d[0]


ENTRY = "f"
