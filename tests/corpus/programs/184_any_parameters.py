from typing import Any, Dict, List


def ident(x: Any) -> Any:
    return x


def describe(x: Any) -> str:
    if isinstance(x, bool):
        return "bool"
    if isinstance(x, int):
        return "int " + str(x + 1)
    elif isinstance(x, str):
        return "str " + x
    elif isinstance(x, list):
        return "list of " + str(len(x))
    return "other"


def count(xs: List[Any]) -> int:
    return len(xs)


def first_key(d: Dict[str, Any], default: str = "-") -> str:
    for k in d:
        return k
    return default


def uses(n: int, s: str) -> List[str]:
    a = ident(n) + 1
    b = ident(s) + "!"
    return [str(a), b, describe(n), describe(s), describe([1.5]), describe(2.5),
            describe(True), str(count([1, 2])), str(count(["a"])),
            first_key({"k": 1.5}), first_key({}, "none"), describe(x=n)]


CASES = [("uses", (3, "q")), ("uses", (-1, ""))]
