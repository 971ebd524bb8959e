def collect(n: int) -> List[int]:
    xs = torch.jit.annotate(List[int], [])
    for i in range(n):
        if i % 3 != 0:
            xs.append(i * i)
    return xs


def table(words: List[str]) -> Dict[str, List[int]]:
    d = torch.jit.annotate(Dict[str, List[int]], {})
    for i, w in enumerate(words):
        if w not in d:
            d[w] = []
        d[w].append(i)
    return d


def first_negative(xs: List[float]) -> Optional[float]:
    found = torch.jit.annotate(Optional[float], None)
    for x in xs:
        if x < 0 and found is None:
            found = x
    return found


def pairs(n: int) -> List[Tuple[int, str]]:
    out = torch.jit.annotate(List[Tuple[int, str]], [])
    for i in range(n):
        out.append((i, str(i) * i))
    return out


CASES = [
    ("collect", (10,)), ("collect", (0,)),
    ("table", (["a", "b", "a", "c", "b", "a"],)), ("table", ([],)),
    ("first_negative", ([1.0, -2.5, -3.0],)), ("first_negative", ([1.0],)),
    ("pairs", (4,)),
]
