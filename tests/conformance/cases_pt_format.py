"""PyTorch's test_string_formatting.py, ported (the error cases are compared with
CPython's exception type)."""

CASES = [
    ('''
def fn(dividend: int, divisor: int) -> int:
    return dividend % divisor
''', [(5, 2)]),
    ('''
def fn(arg1: str):
    return "%s in template" % arg1
''', [("foo",)]),
    ('''
def fn(arg1: str):
    return arg1 % "foo"
''', [("%s in template",)]),
    ('''
def fn(arg1: str):
    return "%s in template %%" % arg1
''', [("foo",)]),
    ('''
def fn(arg1: str) -> str:
    return "%s in template %" % arg1
''', [("foo",)]),
    ('''
def fn(arg1: int) -> str:
    return "%s in template" % arg1
''', [(1,)]),
    ('''
def fn(arg1: int) -> str:
    return "%d in template" % arg1
''', [(1,)]),
    ('''
def fn(arg1: int) -> str:
    return "%i in template" % arg1
''', [(1,)]),
    ('''
def fn(arg1: str) -> str:
    return "%d in template" % arg1
''', [("1",)]),
    ('''
def fn(arg1: str) -> str:
    return "%e in template" % arg1
''', [("1",)]),
    ('''
def fn(arg1: int) -> str:
    return "%e in template" % arg1
''', [(1,)]),
    ('''
def fn(arg1: int) -> str:
    return "%E in template" % arg1
''', [(1,)]),
    ('''
def fn(arg1: float) -> str:
    return "%f in template" % arg1
''', [(1.0,)]),
    ('''
def fn(arg1: int) -> str:
    return "%f in template" % arg1
''', [(1,)]),
    ('''
def fn(arg1: str) -> str:
    return "%c in template" % arg1
''', [("a",)]),
    ('''
def fn(arg1: int) -> str:
    return "%c in template" % arg1
''', [(97,)]),
    ('''
def fn(arg1: str) -> str:
    return "%c in template" % arg1
''', [("foo",)]),
    ('''
def fn(arg1: str, arg2: int, arg3: float) -> str:
    return "%s %d %f in template" % (arg1, arg2, arg3)
''', [("foo", 1, 1)]),
    ('''
def fn(arg1: List[str]) -> str:
    return "%s in template" % arg1[0]
''', [(["foo", "bar"],)]),
    ('''
def fn(arg1: str) -> str:
    return "%s %s in template" % arg1
''', [("foo",)]),
    ('''
def fn(arg1: str, arg2: str) -> str:
    return "%s in template" % (arg1, arg2)
''', [("foo", "bar")]),
]
