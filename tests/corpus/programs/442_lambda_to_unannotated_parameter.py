def my_map_map_and_filter(fn, xs: List[int]) -> List[int]:
    return [fn(x) for x in xs]

def my_filter_map_and_filter(pred, xs: List[int]) -> List[int]:
    out: List[int] = []
    for x in xs:
        if pred(x):
            out.append(x)
    return out

def map_and_filter(xs: List[int], k: int) -> List[int]:
    return my_map_map_and_filter(lambda v: v * k, xs) + my_filter_map_and_filter(lambda v: v % 2 == 0, xs)


def compose_composed(f, g, x: float) -> float:
    return f(g(x))

def twice_composed(fn, x):
    return fn(fn(x))

def composed(x: float) -> float:
    return compose_composed(lambda a: a * 2.0, lambda b: b + 1.0, x)


def reduce__reduced(fn, xs: List[int], init: int) -> int:
    acc = init
    for x in xs:
        acc = fn(acc, x)
    return acc

def reduced(xs: List[int]) -> Tuple[int, int]:
    return reduce__reduced(lambda a, b: a + b, xs, 0), reduce__reduced(lambda a, b: max(a, b), xs, -100)


def apply_str_string_fn(fn, s: str) -> str:
    return fn(s)

def string_fn(s: str) -> str:
    return apply_str_string_fn(lambda t: t.upper() + "!", s)


def apply_keyword_lambda(fn, x: int) -> int:
    return fn(x)

def keyword_lambda(x: int) -> int:
    return apply_keyword_lambda(x=x, fn=lambda v: v - 1) + apply_keyword_lambda(lambda v: v * 2, x=x)


CASES = [
    ('map_and_filter', ([1, 2, 3, 4], 3)),
    ('composed', (1.5,)),
    ('reduced', ([3, 9, 2],)),
    ('string_fn', ('hi',)),
    ('keyword_lambda', (5,)),
]
