from typing import Dict, List, Tuple


def scaled(x: int, *, factor: int = 2, offset: int = 0) -> int:
    return x * factor + offset


def options(name: str, **kw: int) -> str:
    out = name
    for k, v in kw.items():
        out += f" {k}={v}"
    return out + f" ({len(kw)})"


def joined(a: int, *rest: int, sep: str = ",", **weights: float) -> str:
    return sep.join(str(r) for r in rest) + f"|{a}|{sorted(weights)}|{len(weights)}"


def pair(a: int, b: str, c: float = 0.5) -> str:
    return f"{a}{b}{c}"


def counted(log: List[str], tag: str) -> int:
    log.append(tag)
    return len(log)


def settings(**kw: str) -> Dict[str, str]:
    kw["seen"] = str(len(kw))
    return kw


def keyword_only(n: int) -> List[int]:
    return [scaled(n), scaled(n, factor=3), scaled(n, offset=1, factor=0)]


def collected(n: int) -> List[str]:
    return [options("a"), options("b", x=n, y=2), options(name="c", z=1),
            options("d", **{"w": n, "v": 0})]


def star_args_and_kwargs(n: int) -> List[str]:
    return [joined(n), joined(n, 1, 2), joined(n, 3, sep="-"),
            joined(n, 4, 5, sep=";", w=1.5, v=2.0)]


def spread(n: int) -> List[str]:
    t = (n, "x")
    u = (1.5,)
    return [pair(*t), pair(*t, *u), pair(n, *("y",), c=2.0), pair(**{"a": n, "b": "z"}),
            pair(*t, **{"c": 9.0})]


def spread_into_star_args(n: int) -> str:
    t = (1, 2, 3)
    return joined(n, *t, **{"q": 1.0}, sep="+")


def evaluation_order(n: int) -> Tuple[str, List[str]]:
    log: List[str] = []
    t = (counted(log, "t1"), "t")
    out = pair(counted(log, "a"), *("b",), c=float(counted(log, "c")))
    return out + str(t[0]), log


def fresh_dict_each_call(n: int) -> List[Dict[str, str]]:
    return [settings(), settings(a="x"), settings(b="y", c=str(n))]


CASES = [
    ("keyword_only", (3,)),
    ("collected", (4,)),
    ("star_args_and_kwargs", (1,)),
    ("spread", (7,)),
    ("spread_into_star_args", (0,)),
    ("evaluation_order", (0,)),
    ("fresh_dict_each_call", (5,)),
]
