"""JIT-test idioms that once failed: refinement inside and/or values, tuple(), ints for bool
parameters, tuples for List parameters, BroadcastingList, __int__/__float__, sorting
many-element tensors, Optional joins, Any-annotated locals, Tuple[T, ...] and f(*list)."""

import torch

CASES = [
    ('''
class Leaf(object):
    def __init__(self):
        self.x = 1

class Tree(object):
    def __init__(self):
        self.child = torch.jit.annotate(Optional[Leaf], None)

    def add_child(self, child):
        # type: (Leaf) -> None
        self.child = child

def f(add: bool):
    t = Tree()
    if add:
        t.add_child(Leaf())
    c = t.child
    return c is not None and c.x == 1
''', [(True,), (False,)]),
    ('''
def f(x: Optional[int], y: Union[int, str]):
    a = x is not None and x > 2
    b = x is None or x < 0
    c = isinstance(y, int) and y + 1 > 2
    d = not isinstance(y, int) and len(y) > 1
    e = x is not None and x > 0 and x < 10
    return a, b, c, d, e
''', [(None, 1), (5, "ab"), (-1, 3)]),
    ('''
def bar():
    f = tuple((1, 2))
    return f, tuple([3, 4.5]), tuple("ab"), tuple()
''', [()]),
    ('''
def fn2(x: List[bool]):
    return sum(x)
''', [([True, False, True],), ([False],)]),
    ('''
def fn(x: bool, y: int):
    return x, y
''', [(True, 3)]),
    ('''
def opt_list(x):
    # type: (Optional[List[float]]) -> int
    return 2 if x is None else len(x)

def broadcast_opt_list(x):
    # type: (Optional[BroadcastingList2[float]]) -> int
    return 2

def opt_list_tuple_caller(x):
    # type: (Tuple[float, float]) -> int
    return opt_list(x) + broadcast_opt_list(x)
''', [((2.0, 3.0),)]),
    ('''
def total(xs: List[float]) -> float:
    return sum(xs)

def f(a: float, b: int):
    return total((a, b)), total((a, 0.5, a))
''', [(1.5, 2)]),
    ('''
class Foo(object):
    def __init__(self, val):
        # type: (float) -> None
        self.val = val

    def __int__(self):
        return int(self.val)

    def __float__(self):
        return self.val

    def __bool__(self):
        return bool(self.val)

def test(x: float):
    foo = Foo(x)
    n = 0
    if foo:
        n = 1
    return int(foo), float(foo), bool(foo), n
''', [(0.5,), (0.0,), (-2.7,)]),
    ('''
def test_fail(x: List[Tensor]) -> List[Tensor]:
    x.sort()
    return x
''', [([torch.zeros([2]), torch.zeros([2])],), ([torch.tensor(2.0), torch.tensor(1.0)],)]),
    ('''
def f(x: List[Tensor]):
    return max(x[0], x[1])
''', [([torch.zeros([2]), torch.ones([2])],), ([torch.tensor(2.0), torch.tensor(1.0)],)]),
    ('''
def fn2(x):
    return [torch.ones(2, 2), None, x]
''', [(torch.ones(2, 2),)]),
    ('''
def f(n: int):
    kwargs: Dict[str, Any] = {"tensor_kwarg": torch.tensor([3, 3]), "str_kwarg": "_s",
                              "int_kwarg": n}
    out: List[str] = []
    for k, v in kwargs.items():
        if isinstance(v, int):
            out.append(k + str(v + 1))
        elif isinstance(v, str):
            out.append(k + v)
        else:
            out.append(k + str(int(v.sum())))
    return out
''', [(2,)]),
    ('''
def f(xs: Tuple[int, ...], scale: int = 2) -> List[int]:
    return [x * scale for x in xs]
''', [((1, 2, 3),), ((),), ((4,), 3)]),
    ('''
def weigh(a: int, b: int = 10, c: int = 100) -> int:
    return a + 2 * b + 3 * c

def f(xs: List[int], d: Dict[str, int]):
    return weigh(*xs), weigh(**d)
''', [([1], {"a": 2}), ([1, 2, 3], {"c": 1, "a": 0}), ([], {"a": 1}), ([1], {"z": 1})]),
    ('''
class Animal:
    def __init__(self, name: str):
        self.name = name

    def sound(self) -> str:
        return "..."

    def speak(self) -> str:
        return self.name + " says " + self.sound()

class Dog(Animal):
    def sound(self) -> str:
        return "woof"

class Cat(Animal):
    def sound(self) -> str:
        return "meow"

def chorus(animals: List[Animal]) -> List[str]:
    return [a.speak() for a in animals]

def f(n: int):
    zoo: List[Animal] = [Dog("rex"), Cat("tom"), Animal("x")]
    pet: Animal = zoo[n % 3]
    pet.name = pet.name.upper()
    return chorus(zoo), pet.sound()
''', [(0,), (1,), (5,)]),
    ('''
def f(xs: List[int], t: Tuple[int, str], d: Dict[str, int]):
    print(*xs)
    print(1, *xs, 2, sep=",")
    print(*t, end="!\\n")
    print(*"ab", *range(2), sep="-")
    return [*xs, *t[:1], *d.values()], {**d, "z": 0}, (*t, 1)
''', [([1, 2], (3, "q"), {"a": 5}), ([], (0, ""), {})]),
    ('''
def tensor_to_int(x, tensor):
    return x.unsqueeze(tensor)
''', [(torch.zeros(3), torch.tensor(0)), (torch.zeros(3), torch.tensor([1]))]),
    ('''
def tensor_to_float(x, tensor):
    return x.addcmul(tensor, tensor, value=tensor)
''', [(torch.zeros(3), torch.tensor(1.5)), (torch.zeros(3), torch.tensor(2))]),
    ('''
def fn(x: List[int], d: Dict[str, int]):
    a, b = x[0], x[1]
    del a, b
    del x[0], x[1]
    del d["hi"], d["there"]
    return x, d
''', [([0, 1, 2], {"hi": 5, "there": 6, "x": 1})]),
    ('''
def f(xs: Optional[Tuple[int, ...]] = None) -> int:
    return -1 if xs is None else len(xs) + sum(xs)
''', [((1, 2),), (), (None,)]),
]
