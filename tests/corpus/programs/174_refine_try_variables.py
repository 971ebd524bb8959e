from typing import List, Optional


def after_try(s: str) -> int:
    v: Optional[int] = None
    try:
        v = int(s)
    except ValueError:
        pass
    return v * 2 if v is not None else -1


def in_loop(xs: List[str]) -> List[int]:
    out: List[int] = []
    for x in xs:
        v: Optional[int] = None
        try:
            v = int(x)
        except ValueError:
            v = None
        if v is not None:
            out.append(v + 1)
    return out


def narrowed_then_reassigned(s: str) -> str:
    v: Optional[str] = None
    try:
        v = s.upper()
    finally:
        pass
    if v is not None:
        n = len(v)
        try:
            v = None
            raise KeyError(s)
        except KeyError:
            return f"{n}:{v}"
    return "none"


def narrowed_in_while(k: int) -> int:
    v: Optional[int] = None
    try:
        v = k
    except ValueError:
        pass
    total = 0
    if v is not None:
        while v is not None and v > 0:
            total += v
            v = v - 1 if v > 2 else None
    return total


def refined_in_exiting_branch(n: int) -> int:
    v: Optional[int] = -1
    v = None
    try:
        fuel = 0
        while fuel < 3:
            fuel += 1
            if v is not None:
                break
            v = v  # v is None here: the refined read of the other branch must not leak
            v = n if fuel == 2 else None
    except (ArithmeticError, IndexError):
        v = 0
    return v if v is not None else -5


CASES = [("refined_in_exiting_branch", (7,)), ("after_try", ("21",)), ("after_try", ("x",)), ("in_loop", (["1", "a", "3"],)),
         ("narrowed_then_reassigned", ("ab",)), ("narrowed_in_while", (5,)),
         ("narrowed_in_while", (0,))]
