from typing import Any, Dict, List, Tuple


def describe(n: int) -> List[str]:
    opts: Dict[str, Any] = {"count": n, "name": "run" + str(n), "scale": n / 4, "on": n > 1}
    out: List[str] = []
    for k, v in opts.items():
        if isinstance(v, bool):
            out.append(k + (" yes" if v else " no"))
        elif isinstance(v, int):
            out.append(k + " " + str(v * 2))
        else:
            out.append(k + " " + str(v))
    return out


def mixed(n: int) -> str:
    xs: List[Any] = [n, "a", 2.5, None]
    pair: Tuple[int, Any] = (n, [n, n])
    x: Any = n * 3
    return str(xs) + str(pair) + str(x) + str(len(xs))


CASES = [("describe", (2,)), ("describe", (0,)), ("mixed", (4,))]
