from typing import List


def shown(n: int) -> List[str]:
    out: List[str] = []
    for i in range(6):
        try:
            if i == 0:
                raise KeyError(n)
            elif i == 1:
                raise ValueError(n * 1.5)
            elif i == 2:
                raise IndexError((n, "k"))
            elif i == 3:
                raise RuntimeError([n, n])
            elif i == 4:
                raise KeyError("name")
            else:
                assert n < 0, n
        except Exception as e:
            out.append(str(e))
            out.append(repr(e))
    return out


def escapes(n: int) -> int:
    if n > 2:
        raise KeyError(n)
    return n


def none_argument(n: int) -> str:
    try:
        raise ValueError(None)
    except ValueError as e:
        return str(e) + repr(e)


CASES = [("shown", (3,)), ("escapes", (5,)), ("escapes", (1,)), ("none_argument", (0,))]
