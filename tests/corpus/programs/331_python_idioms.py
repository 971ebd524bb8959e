from typing import List, Dict, Tuple, Optional, Set, Iterator, Callable

def gen_squares(n: int):
    for i in range(n):
        yield i * i

def use_gen(n: int) -> Tuple[List[int], int, bool]:
    evens = [x for x in gen_squares(n) if x % 2 == 0]
    return evens, sum(gen_squares(n)), any(x > 10 for x in gen_squares(n))

def chain_gens(a: List[int], b: List[int]):
    yield from a
    yield from (x * 10 for x in b)

def use_chain(a: List[int], b: List[int]) -> List[int]:
    return list(chain_gens(a, b))

def word_freq(text: str) -> List[Tuple[str, int]]:
    counts: Dict[str, int] = {}
    for w in text.lower().split():
        w = w.strip(".,!?")
        if w:
            counts[w] = counts.get(w, 0) + 1
    return sorted(counts.items(), key=lambda kv: (-kv[1], kv[0]))

def uniq(xs: List[int]) -> List[int]:
    seen: Set[int] = set()
    out: List[int] = []
    for x in xs:
        if x not in seen:
            seen.add(x)
            out.append(x)
    return out

def flatten(xss: List[List[int]]) -> List[int]:
    return [x for xs in xss for x in xs]

def apply_all(fs: List[Callable[[int], int]], x: int) -> List[int]:
    return [f(x) for f in fs]

def use_apply(x: int) -> List[int]:
    return apply_all([lambda v: v + 1, lambda v: v * 2, abs], x)

def kw(a: int, b: int = 2, *, c: int = 3) -> int:
    return a * 100 + b * 10 + c

def use_kw() -> List[int]:
    return [kw(1), kw(1, 5), kw(1, c=7), kw(a=4, b=0, c=0)]

def rotate(xs: List[int], k: int) -> List[int]:
    if not xs:
        return xs
    k %= len(xs)
    return xs[-k:] + xs[:-k]

def fizz(n: int) -> List[str]:
    out: List[str] = []
    for i in range(1, n + 1):
        s = ""
        if i % 3 == 0:
            s += "Fizz"
        if i % 5 == 0:
            s += "Buzz"
        out.append(s or str(i))
    return out

def safe_div(a: int, b: int) -> Optional[float]:
    try:
        return a / b
    except ZeroDivisionError:
        return None
    finally:
        pass

def matrix_mul(a: List[List[int]], b: List[List[int]]) -> List[List[int]]:
    n, m, p = len(a), len(b), len(b[0])
    return [[sum(a[i][k] * b[k][j] for k in range(m)) for j in range(p)] for i in range(n)]


def dict_ops(d: Dict[str, int]) -> Tuple[Dict[str, int], List[str], int]:
    inv = {v: k for k, v in d.items()}
    merged = {**d, "z": 26}
    merged |= {"y": 25}
    return merged, sorted(inv.values()), max(d.values()) if d else 0

def counter_closure(n: int) -> List[int]:
    count = 0
    def inc() -> int:
        nonlocal count
        count += 1
        return count
    return [inc() for _ in range(n)]

def str_stuff(s: str) -> Tuple[str, str, List[str], str]:
    return s.title(), s[::-1], sorted(set(s)), "-".join(reversed(s.split()))

def enumerate_zip(a: List[str], b: List[int]) -> List[str]:
    return [f"{i}:{x}={y}" for i, (x, y) in enumerate(zip(a, b), start=1)]

def nested_fn(x: int) -> int:
    def helper(y: int) -> int:
        return y * x
    total = 0
    for i in range(3):
        total += helper(i)
    return total

def walrus_list(xs: List[int]) -> List[int]:
    return [y for x in xs if (y := x * 3) % 2 == 0]

def global_const() -> float:
    return SCALE * 2

SCALE = 1.5

CASES = [("use_gen", (6,)), ("use_chain", ([1, 2], [3])), ("word_freq", ("The cat. the dog! A cat?",)),
 ("uniq", ([3, 1, 3, 2, 1],)), ("flatten", ([[1], [], [2, 3]],)), ("use_apply", (-3,)), ("use_kw", ()),
 ("rotate", ([1, 2, 3, 4], 1)), ("rotate", ([], 3)), ("fizz", (15,)), ("safe_div", (1, 0)), ("safe_div", (3, 2)),
 ("matrix_mul", ([[1, 2], [3, 4]], [[5, 6], [7, 8]])), 
 ("dict_ops", ({"a": 1, "b": 3},)), ("counter_closure", (3,)), ("str_stuff", ("hello world",)),
 ("enumerate_zip", (["a", "b"], [1, 2])), ("nested_fn", (4,)), ("walrus_list", ([1, 2, 3, 4],)), ("global_const", ())]
