# error: TypeCheckError
# line: 10
# match: spread into total()'s *args are str, not int
from typing import List

def total(*args: int) -> int:
    return sum(args)

def g(xs: List[str]) -> int:
    return total(*xs)


ENTRY = "g"
