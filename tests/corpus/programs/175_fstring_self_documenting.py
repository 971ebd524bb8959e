from typing import Dict, List


def debug(x: int, y: float, s: str, xs: List[int]) -> str:
    return (f"{x=} {y = } {s=} {s=!s} {y=:.2f} {x=:>5} {xs[0]=} {x + 1=} "
            f"{x == 1=} {s=!r:>8} {xs=} {x=!r:^{x}}|")


def nested(d: Dict[str, float], k: str) -> str:
    width = 9
    return f"{d[k]=:{width}.3f} {len(d)  =  } {k.upper()=}"


CASES = [("debug", (3, 2.5, "hi", [7, 8])), ("debug", (-12, -0.0, "", [0])),
         ("nested", ({"a": 1.23456, "b": 2.0}, "a"))]
