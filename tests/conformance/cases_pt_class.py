"""PyTorch's test_class_type.py checkScript cases, ported as CompilationUnit sources: the
class statements and functions as the tests write them; objects of script classes made by
CPython (from the same source) are passed in, as checkScript passes them."""

import torch

FOO_SORT = '''
class Foo(object):
    def __init__(self, x):
        # type: (int) -> None
        self.x = x

    def __lt__(self, other):
        # type: (Foo) -> bool
        return self.x < other.x

    def getVal(self):
        return self.x

def test(li, reverse=False):
    # type: (List[Foo], bool)
    li_sorted = sorted(li)
    ret_sorted = torch.jit.annotate(List[int], [])
    for foo in li_sorted:
        ret_sorted.append(foo.getVal())

    li.sort(reverse=reverse)
    ret_sort = torch.jit.annotate(List[int], [])
    for foo in li:
        ret_sort.append(foo.getVal())
    return ret_sorted, ret_sort
'''

MYCLASS = '''
class MyClass(object):
    def __init__(self, x):
        # type: (int) -> None
        self.x = x

    def __add__(self, other):
        # type: (int) -> int
        return self.x + other

    def __sub__(self, other):
        # type: (int) -> int
        return self.x - other

    def __mul__(self, other):
        # type: (int) -> int
        return self.x * other

    def __pow__(self, other):
        # type: (int) -> int
        return int(self.x ** other)

    def __truediv__(self, other):
        # type: (int) -> float
        return self.x / other

    def __mod__(self, other):
        # type: (int) -> int
        return self.x % other

    def __ne__(self, other):  # noqa T484
        # type: (int) -> bool
        return self.x != other

    def __eq__(self, other):  # noqa T484
        # type: (int) -> bool
        return self.x == other

    def __lt__(self, other):
        # type: (int) -> bool
        return self.x < other

    def __gt__(self, other):
        # type: (int) -> bool
        return self.x > other

    def __le__(self, other):
        # type: (int) -> bool
        return self.x <= other

    def __ge__(self, other):
        # type: (int) -> bool
        return self.x >= other

    def __and__(self, other):
        # type: (int) -> int
        return self.x & other

    def __or__(self, other):
        # type: (int) -> int
        return self.x | other

    def __xor__(self, other):
        # type: (int) -> int
        return self.x ^ other

    def __getitem__(self, other):
        # type: (int) -> int
        return other + 1

    def __setitem__(self, idx, val):
        # type: (int, int) -> None
        self.x = val * idx

    def __call__(self, val):
        # type: (int) -> int
        return self.x * val * 3
'''

OPS = ["MyClass(4) + 3", "MyClass(4) - 3", "MyClass(4) * 3", "MyClass(4) ** 3",
       "MyClass(4) / 3", "MyClass(4) != 3", "MyClass(4) == 3", "MyClass(4) < 3",
       "MyClass(4) > 3", "MyClass(4) <= 3", "MyClass(4) >= 3", "MyClass(4) & 3",
       "MyClass(4) | 3", "MyClass(4) ^ 3", "MyClass(4)[1]", "MyClass(5)(2)"]


FOO_XY = '''
class Foo(object):
    def __init__(self, x, y):
        self.x = x
        self.y = y

def use_foo(foo, foo2, tup):
    # type: (Foo, Foo, Tuple[Foo, Foo]) -> Tensor
    a, b = tup
    return foo.x + foo2.y + a.x + b.y
'''


def _classes(source):
    """The classes of source as CPython makes them (the arguments checkScript passes)."""
    ns = {"torch": torch, "List": list, "__name__": "conformance"}
    exec(source.split("\ndef ")[0], ns)  # noqa: S102
    return ns


def _foo_args():
    Foo = _classes(FOO_SORT)["Foo"]
    return [([Foo(2), Foo(1), Foo(3)],), ([Foo(2), Foo(1), Foo(3)], True), ([Foo(2)],), ([],)]


def _xy_args():
    Foo = _classes(FOO_XY)["Foo"]
    x, y = torch.ones(2, 3), torch.zeros(2, 3)
    f, f2, f3 = Foo(x, y), Foo(x * 2, y * 3), Foo(x * 4, y * 4)
    return [(f, f2, (f, f3))]


CASES = [
    (FOO_SORT, _foo_args()),
    (FOO_XY, _xy_args()),
] + [(MYCLASS + f"\ndef fn():\n    return {op}\n", [()]) for op in OPS] + [
    (MYCLASS + "\ndef setitem():\n    a = MyClass(4)\n    a[1] = 5\n    return a.x\n", [()]),
    ('''
class Foo(object):
    def __init__(self, x):
        self.x = x

    def __len__(self):
        # type: () -> int
        return len(self.x)

    def __neg__(self):
        self.x = -self.x
        return self

    def __mul__(self, other):
        # type: (Tensor) -> Tensor
        return self.x * other

def test_overload():
    a = Foo(torch.ones([3, 3]))
    return len(a), -a * torch.zeros([3, 3])
''', [()]),
    ('''
class X(object):
    def __init__(self, x):
        # type: (int) -> None
        self.x = x

    @staticmethod
    def identity(x):
        return x

def fn(x, y):
    return X.identity(x)
''', [(torch.randn(2, 2), torch.randn(2, 2))]),
    ('''
class FooTest(object):
    def __init__(self):
        pass

    def __contains__(self, key):
        # type: (str) -> bool
        return key == 'hi'

def fn():
    foo = FooTest()
    return 'hi' in foo, 'no' in foo
''', [()]),
    ('''
class FooTest(object):
    def __init__(self, x):
        self.x = x
        self.x = self.get_stuff(x)

    def get_stuff(self, y):
        return self.x + y

def fn(x):
    f = FooTest(x)
    return f.x
''', [(torch.ones(1),)]),
]
