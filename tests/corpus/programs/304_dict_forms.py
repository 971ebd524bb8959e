def from_pairs(ps: List[Tuple[str, int]]) -> Dict[str, int]:
    return dict(ps)


def from_zip(ks: List[str], vs: List[float]) -> Dict[str, float]:
    return dict(zip(ks, vs))


def from_keywords(n: int) -> Dict[str, int]:
    return dict(one=1, two=2, n=n)


def copy_and_update(d: Dict[str, int]) -> Tuple[Dict[str, int], Dict[str, int]]:
    e = dict(d, extra=99, a=-1)
    e["new"] = 0
    return d, e


def from_enumerate(xs: List[str]) -> Dict[int, str]:
    return dict(enumerate(xs))


def from_generator(xs: List[int]) -> Dict[int, int]:
    return dict((x, x * x) for x in xs if x % 2 == 0)


def from_lists(xs: List[List[int]]) -> Dict[int, int]:
    return dict(xs)


def empty() -> Dict[str, List[int]]:
    d: Dict[str, List[int]] = dict()
    d["k"] = [1]
    return d


def from_items(d: Dict[int, str]) -> Dict[int, str]:
    return dict(d.items())


CASES = [
    ("from_pairs", ([("a", 1), ("b", 2), ("a", 3)],)), ("from_pairs", ([],)),
    ("from_zip", (["x", "y", "z"], [1.5, 2.5],)),
    ("from_keywords", (5,)),
    ("copy_and_update", ({"a": 1, "b": 2},)),
    ("from_enumerate", (["p", "q"],)),
    ("from_generator", ([1, 2, 3, 4, 6],)),
    ("from_lists", ([[1, 2], [3, 4], [1, 5]],)),
    ("empty", ()),
    ("from_items", ({3: "c", 1: "a"},)),
]
