# error: TypeCheckError
# line: 10
# match: missing required argument 'a'
from typing import Dict

def f(a: str, **kw: int) -> int:
    return len(kw)

def g(d: Dict[str, int]) -> int:
    return f(**d)


ENTRY = "g"
