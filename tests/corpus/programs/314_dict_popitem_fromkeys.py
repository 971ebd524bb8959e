def drain(d: Dict[str, int]) -> List[Tuple[str, int]]:
    out: List[Tuple[str, int]] = []
    while d:
        out.append(d.popitem())
    return out


def empty_popitem(d: Dict[int, float]) -> Tuple[int, float]:
    return d.popitem()


def from_keys(xs: List[str], n: int) -> Dict[str, int]:
    d = dict.fromkeys(xs, n)
    d["extra"] = -1
    return d


def from_chars(s: str) -> Dict[str, bool]:
    return dict.fromkeys(s, True)


def update_with_pairs(d: Dict[str, int], ps: List[Tuple[str, int]]) -> Dict[str, int]:
    d.update(ps)
    return d


def through_the_type(s: str, xs: List[int]) -> Tuple[str, int, List[str]]:
    return str.upper(s), list.count(xs, 1), str.split(s, ",")


CASES = [("drain", ({"a": 1, "b": 2, "c": 3},)), ("drain", ({},)),
         ("empty_popitem", ({},)), ("empty_popitem", ({1: 0.5},)),
         ("from_keys", (["x", "y", "x"], 3)), ("from_keys", ([], 0)),
         ("from_chars", ("abca",)), ("update_with_pairs", ({"a": 1}, [("b", 2), ("a", 3)])),
         ("through_the_type", ("a,b", [1, 2, 1]))]
