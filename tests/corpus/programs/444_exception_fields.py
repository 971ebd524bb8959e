class AppError(Exception):
    """Base."""
    code: int
    def __init__(self, msg: str, code: int = 1):
        super().__init__(f"[{code}] {msg}")
        self.code = code
        self.msg = msg

class NotFound(AppError):
    def __init__(self, what: str):
        super().__init__(what + " not found", 404)
        self.what = what

class Teapot(AppError):
    pass

def find(d: Dict[str, int], k: str) -> int:
    if k not in d:
        raise NotFound(k)
    if d[k] < 0:
        raise Teapot("negative", code=418)
    return d[k]

def app_errors(d: Dict[str, int], k: str) -> str:
    try:
        return str(find(d, k))
    except NotFound as e:
        return "NF " + str(e) + " " + e.what + " " + str(e.code) + " " + e.msg
    except AppError as e:
        return "AE " + str(e) + " " + str(e.code) + " " + repr(e)


class Plain(ValueError):
    def __init__(self, a: int, b: int):
        self.total = a + b

def no_super_init(a: int) -> str:
    try:
        raise Plain(a, 2)
    except ValueError as e:
        return str(e) + " " + repr(e) + " " + str(e.total)


class Boxed(Exception):
    def __init__(self, x: float):
        super().__init__(x)
        self.x = x

def errors_in_a_list(v: float) -> float:
    e = Boxed(v)
    errs = [e, Boxed(v * 2)]
    total = 0.0
    for err in errs:
        total += err.x
    try:
        raise errs[1]
    except Boxed as caught:
        return total + caught.x


CASES = [
    ('app_errors', ({'a': 1, 'b': -1}, 'a')),
    ('app_errors', ({'a': 1, 'b': -1}, 'b')),
    ('app_errors', ({'a': 1}, 'zz')),
    ('no_super_init', (1,)),
    ('errors_in_a_list', (1.5,)),
]
