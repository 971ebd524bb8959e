# error: NameResolutionError
# line: 6
# match: unknown type 'Dict' in annotation (name is not defined) (import it: from typing

def f(n: int) -> int:
    d: Dict[str, int] = {"a": n}
    return d["a"]


ENTRY = "f"
