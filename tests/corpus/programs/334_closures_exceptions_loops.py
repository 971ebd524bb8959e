from typing import List, Dict, Tuple, Optional, Callable

COUNT = 0

def bump_global() -> int:
    global COUNT
    return COUNT + 1

def late_binding() -> int:
    def get() -> int:
        return x
    x = 5
    r = get()
    x = 7
    return r + get()

def make_counter() -> Callable[[], int]:
    n = 0
    def inc() -> int:
        nonlocal n
        n += 1
        return n
    return inc

def use_counter() -> List[int]:
    c = make_counter()
    d = make_counter()
    return [c(), c(), d(), c()]

def del_stuff(xs: List[int], d: Dict[str, int]) -> Tuple[List[int], Dict[str, int]]:
    del xs[0], xs[-1]
    del d["a"]
    y = 3
    del y
    return xs, d

class ValidationError(ValueError):
    pass

def validate(age: int) -> str:
    try:
        if age < 0:
            raise ValidationError("age: negative")
        return "ok"
    except ValidationError as e:
        return f"age -> {e}"

def reraise(k: int) -> str:
    try:
        try:
            return str(10 // k)
        except ZeroDivisionError as e:
            raise RuntimeError("wrapped") from e
    except RuntimeError as e:
        return f"{e} (caught)"

def loop_var_after(xs: List[int]) -> int:
    for x in xs:
        if x > 2:
            break
    return x

def nested_loops_else(n: int) -> List[int]:
    primes: List[int] = []
    for i in range(2, n):
        for j in range(2, i):
            if i % j == 0:
                break
        else:
            primes.append(i)
    return primes

def compose(f: Callable[[int], int], g: Callable[[int], int]) -> Callable[[int], int]:
    return lambda x: f(g(x))

def use_compose(x: int) -> int:
    h = compose(lambda a: a + 1, lambda b: b * 10)
    return h(x)

def assert_msg(x: int) -> int:
    assert x > 0, f"x must be positive, got {x}"
    return x

def ternary_chain(x: int) -> str:
    return "neg" if x < 0 else "zero" if x == 0 else "pos"

def augmented(xs: List[int]) -> Tuple[List[int], str, int]:
    ys = xs
    ys += [9]
    s = "a"
    s *= 3
    n = 7
    n //= 2
    n **= 3
    n <<= 1
    return xs, s, n

CASES = [("bump_global", ()), ("late_binding", ()), ("use_counter", ()), ("del_stuff", ([1, 2, 3, 4], {"a": 1, "b": 2})),
 ("validate", (-1,)), ("validate", (3,)), ("reraise", (0,)), ("reraise", (5,)), ("loop_var_after", ([1, 3, 5],)),
 ("loop_var_after", ([1],)), ("loop_var_after", ([],)), ("nested_loops_else", (20,)), ("use_compose", (4,)),
 ("assert_msg", (-2,)), ("assert_msg", (2,)), ("ternary_chain", (0,)), ("ternary_chain", (-5,)), ("augmented", ([1],))]
