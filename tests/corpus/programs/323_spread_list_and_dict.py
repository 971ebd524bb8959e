from typing import Dict, List


def weigh(a: int, b: int = 10, c: int = 100) -> int:
    return a + 2 * b + 3 * c


def label(name: str, sep: str = ":", n: int = 1) -> str:
    return sep.join([name] * n)


def from_list(xs: List[int]) -> int:
    return weigh(*xs)


def after_first(xs: List[int]) -> int:
    return weigh(5, *xs, c=7)


def from_dict(d: Dict[str, int]) -> int:
    return weigh(**d)


def with_first(d: Dict[str, int]) -> int:
    return weigh(4, **d)


def labels(parts: List[str], opts: Dict[str, str]) -> List[str]:
    return [label(*parts), label(parts[0], **opts)]


def guarded(xs: List[int]) -> str:
    try:
        return str(weigh(*xs))
    except TypeError as e:
        return "TypeError: " + str(e)


CASES = [("from_list", ([1],)), ("from_list", ([1, 2],)), ("from_list", ([1, 2, 3],)),
         ("from_list", ([],)), ("from_list", ([1, 2, 3, 4],)),
         ("after_first", ([],)), ("after_first", ([1],)), ("after_first", ([1, 2],)),
         ("from_dict", ({"a": 1},)), ("from_dict", ({"c": 2, "a": 1},)),
         ("from_dict", ({"b": 3},)), ("from_dict", ({"a": 1, "z": 2},)),
         ("with_first", ({"c": 2},)), ("with_first", ({"a": 1},)),
         ("labels", (["x"], {"sep": "+"})), ("labels", (["x", "/"], {})),
         ("guarded", ([],)), ("guarded", ([1, 2, 3, 4, 5],)), ("guarded", ([0, 0],))]
