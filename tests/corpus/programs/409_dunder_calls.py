from typing import Dict, List, Tuple


def arith(a: int, b: float) -> Tuple[int, float, int, bool, str]:
    r = 0
    for i in range(4):
        r = r.__add__(i).__mul__(2)
    return r, b.__truediv__(2.0), (3).__rsub__(a), a.__lt__(r), a.__str__()


def containers(xs: List[int], d: Dict[str, int], s: str) -> Tuple[int, int, bool, int, str]:
    return xs.__getitem__(-1), d.__getitem__("k"), s.__contains__("e"), xs.__len__(), \
        s.__getitem__(0)


CASES = [("arith", (3, 5.0)), ("arith", (-2, 0.5)),
         ("containers", ([1, 2], {"k": 7}, "hey")), ("containers", ([], {"k": 1}, "x"))]
