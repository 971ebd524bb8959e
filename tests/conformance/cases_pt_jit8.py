"""More of PyTorch's test_jit.py not ported before: @torch.jit.script functions that the
tests compare with Python (None dispatch in ifs, list pop / resize / out= forms, calls
between script functions, if-defined values), and the bodies of its ScriptModule, ONNX-export
and tracing tests run as functions (module attributes become parameters or constants); as
CompilationUnit sources with the tests' inputs."""

import torch

torch.manual_seed(0)

CASES = [
    ('''
def test_lhs_none_rhs_none():
    # LHS, RHS both alwaysNone, dispatch always_none_branch
    # only emit one prim::Constant
    if None is None:
        return 1
    elif None is not None:
        return 2
    else:
        return 3
''', [()]),
    ('''
def test_lhs_opt_rhs_none(lhs=None):
    # type: (Optional[Tensor]) -> int
    # LHS maybeNone: emit normal if stmt that contains 3 constants
    if lhs is not None:
        return 2
    elif lhs is None:
        return 1
    else:
        return 3
''', [(), (None,), (torch.ones(1),)]),
    ('''
def test_lhs_none_rhs_opt(rhs=None):
    # type: (Optional[Tensor]) -> int
    # RHS maybeNone, emit normal if stmt that contains 3 constants
    if None is rhs:
        return 1
    elif None is not rhs:
        return 2
    else:
        return 3
''', [(), (None,), (torch.ones(1),)]),
    ('''
def test_lhs_never_rhs_none(lhs):
    # LHS neverNone, RHS alwaysNone dispatch never_none_branch
    # only emit one prim::Constant
    if lhs is None:
        return 1
    elif lhs is not None:
        return 2
    else:
        return 3
''', [(torch.ones(1),)]),
    ('''
def test_lhs_none_rhs_never(rhs):
    # LHS alwaysNone, RHS neverNone dispatch never_none_branch
    # only emit one prim::Constant
    if None is rhs:
        return 1
    elif None is not rhs:
        return 2
    else:
        return 3
''', [(torch.ones(1),)]),
    ('''
def test_pop_at_negative():
    a = [1, 2, 3, 4]
    b = a.pop(-2)

    return b == 3
''', [()]),
    ('''
def test_pop_at_negative2():
    a = [1, 2, 3, 4]
    b = a.pop(-2)

    return len(a) == 3
''', [()]),
    ('''
def test_pop_slice():
    a = [1, 2, 3, 4]
    b = [1, 2, 3, 4]

    a.pop()
    b = b[:-1]

    return a == b
''', [()]),
    ('''
def test_pop_empty():
    a = torch.jit.annotate(List[int], [])
    return a.pop()
''', [()]),
    ('''
def test_list_remove_not_existing():
    a = [1, 2, 3, 4]
    a.remove(5)

    return a
''', [()]),
    ('''
def bar(y):
    # type: (List[int]) -> None
    y.append(4)

def foo():
    x = [1, 2, 3]
    bar(x)
    return x
''', [()]),
    ('''
def extend_list(a, b):
    # type: (List[Tensor], List[Tensor]) -> List[Tensor]

    a.extend(b)
    return a
''', [([], []), ([torch.rand(2)], []), ([], [torch.rand(2), torch.rand(2)]),
      ([torch.rand(2), torch.rand(2), torch.rand(2)], [torch.rand(2)])]),
    ('''
def extend_list(a, b):
    # type: (List[int], List[int]) -> List[int]

    a.extend(b)
    return a
''', [([], []), ([1], [1, 2, 3]), ([1, 2, 3], [])]),
    ('''
def copy_list(a):
    # type: (List[Tensor]) -> List[Tensor]
    return a.copy()
''', [([],), ([torch.rand(2), torch.rand(2), torch.rand(2)],)]),
    ('''
def copy_list(a):
    # type: (List[int]) -> List[int]
    return a.copy()
''', [([],), ([1, 2, 3],)]),
    ('''
def test(x, y, z):
    torch.mul(x, y, out=z)
    return z
''', [(torch.ones(2, 2), torch.full((2, 2), 3.0), torch.zeros(2, 2))]),
    ('''
def test(x):
    after_resize_alias = torch.zeros([2])
    for _i in range(5):
        b = x + 1
        f = [1]
        before_resize_alias = b.sub_(1)
        # for i in range(10):
        f.append(1)
        b.resize_(f)
        after_resize_alias = b.add_(1)
    return after_resize_alias
''', [(torch.zeros(1, 1),)]),
    ('''
def test(x):
    b = torch.zeros([2, 2])
    b.resize_as_(x)
    return b
''', [(torch.zeros(1, 1),)]),
    ('''
def test_fuser_multiple_blocks(this, that, theother, meme):
    i = 0
    while i < 20:
        this = torch.cat([this, meme], dim=0)
        that = torch.cat([that, meme], dim=0)
        theother = torch.cat([theother, meme], dim=0)
        i = i + 1
    return this, that, theother
''', [(torch.ones(0, 10, 10), torch.ones(0, 10, 10), torch.ones(0, 10, 10),
       torch.ones(1, 10, 10))]),
    ('''
def outer_func(x):
    return x * 2, x + 2

def func(x):
    y, z = outer_func(x)
    return y + z
''', [(torch.arange(4),)]),
    ('''
def pyfunc(a):
    return a * 3.0

def foo(a):
    return pyfunc(a) + pyfunc(a)
''', [(torch.tensor(1.0),)]),
    ('''
def pyfunc(a):
    return a * 3.0

def other_func(a):
    return a + a

def test_call_python(a):
    b = pyfunc(a)
    b = other_func(b)
    i = 0
    step = 1
    while i < 10:
        b = pyfunc(b)
        if bool(b > 3.0):
            b = pyfunc(b)
        i = 11
    return b
''', [(torch.tensor(1.0),)]),
    ('''
def div_int_future():
    return 1 / 2
''', [()]),
    ('''
def div_float_future():
    return 3.14 / 0.125
''', [()]),
    ('''
def func():
    z = 1
    z += 2
    return z
''', [()]),
    ('''
def func1():
    return -8
''', [()]),
    ('''
def func2():
    return -3.14
''', [()]),
    ('''
def foo(a, b):
    # type: (int, int) -> int
    return a // b
''', [(i, j) for i in range(-8, 8, 3) for j in range(-8, 8, 3)]),
    ('''
def foo(a):
    if bool(a == 0):
        b = 1
    else:
        b = 0
    return b + 1
''', [(torch.ones(1, dtype=torch.long),), (torch.zeros(1, dtype=torch.long),)]),
    ('''
def foo2(a):
    b = 0
    if bool(a == 0):
        b = 1
    return b + 1
''', [(torch.ones(1, dtype=torch.long),), (torch.zeros(1, dtype=torch.long),)]),
    ('''
def foo3(a):
    b = 1
    if bool(a == 0):
        c = 4
    else:
        b = 0
    return b + 1
''', [(torch.ones(1, dtype=torch.long),), (torch.zeros(1, dtype=torch.long),)]),
    ('''
def foo(a, c):
    b = 0.0
    if bool(a == 0.0):
        b = 1.0
    return b + c

def use(b):
    return foo(b - 1.0, torch.ones(1, dtype=torch.float)) + 1.0
''', [(torch.ones(1, dtype=torch.float),), (torch.zeros(1, dtype=torch.float),)]),
    ('''
def foo(bar, input):
    # type: (int, Tensor) -> Tensor
    return input + bar

def call_foo(input):
    return foo(input=input, bar=1)
''', [(torch.ones((), dtype=torch.int64),)]),
    ('''
def foo(input):
    return input + 1

def call_foo(input):
    return foo(input)
''', [(torch.ones((), dtype=torch.int64),)]),
    ('''
def return3():
    return 1, 2, 3
''', [()]),
    ('''
def foo(x):
    return [[x + 1, x - 1], [x + 2, x - 2]]

def bar(x):
    list_stuff = foo(x)
    return list_stuff[0][0], list_stuff[1][1]
''', [(torch.rand(5, 6),)]),
    ('''
def foo_script(x):
    return x[-5:-3]
''', [(torch.arange(0, 8),), (torch.arange(0, 20),)]),
    ('''
def foo_script(x):
    return x[-2]
''', [(torch.arange(0, 8),), (torch.arange(0, 20),)]),
    ('''
def foo(x):
    return x + 1

def bar(x):
    y = int(foo(x))
    if True:
        y = 7
    return y + 1
''', [(torch.ones(1, 1),)]),
    ('''
def test_list(x):
    if bool(x.sum() < 1):
        c = [x, x]
    else:
        c = [x, x, x]
    return torch.cat(c)
''', [(torch.zeros(2, 4),), (torch.ones(2, 4),)]),
    ('''
def tensor_unifying(x, y, z):
    # testing dynamic is appropriately set for y and z
    if True:
        x, y, z = x, y, z
    else:
        x, y, z = x, x, y

    return x, y, z
''', [(torch.zeros(2, 2, dtype=torch.float), torch.zeros(2, 4, dtype=torch.long),
       torch.zeros(2, 4, dtype=torch.float))]),
    ('''
def list_tensors(x):
    # type: (bool) -> Tuple[Tensor, List[Tensor]]
    if x:
        a = torch.zeros([1, 1])
        y = [a]
    else:
        a = torch.zeros([1, 2])
        y = [a]
    return a, y
''', [(True,), (False,)]),
    ('''
def diff_type_unused():
    if True:
        c0 = 1
        print(c0)
    else:
        c0 = 1.0
        print(c0)
    return 1
''', [()]),
    ('''
def foo(x):
    y = x + 1
    z = torch.tensor([[1.0, 2.5]])
    print(x, z)
''', [(torch.ones(2),)]),
    # ScriptModule bodies as functions
    ('''
def forward():
    b = False
    i = 1
    c = 3.5
    return b, i, c
''', [()]),
    ('''
def forward(b: List[int]):
    sum = 0
    for i in b:
        sum += i
    return sum
''', [([1, 2, 3, 4],)]),
    ('''
def forward(running_var, training: bool):
    if training:
        running_var += 1
    return running_var
''', [(torch.tensor(0, dtype=torch.long), True), (torch.tensor(0, dtype=torch.long), False)]),
    ('''
def forward(v, dim: int):
    return torch.cat([v, v, v], dim=dim)
''', [(torch.zeros(1, 1), 1), (torch.ones(2, 3), 0)]),
    ('''
def forward(weight, input):
    if bool(input.sum() > 0):
        output = weight.mv(input)
    else:
        output = weight + input
    return output
''', [(torch.rand(20, 20), torch.rand(20)), (torch.rand(20, 20), -torch.rand(20))]),
    ('''
def foo(param1, param2, param3, param4):
    return param1 + param2 + param3 + param4
''', [(torch.rand(5, 5), torch.rand(5), torch.rand(5, 5), torch.rand(11, 5)[1:6])]),
    # the ONNX export tests' script bodies
    ('''
def forward(x):
    y = x - x
    return x + x
''', [(torch.zeros(1, 2, 3),)]),
    ('''
def forward(x):
    # test if we support end to end onnx export on loop and
    # nested loops with and without loop index
    for _ in range(5):
        for i in range(3):
            x = x + i
    return x
''', [(torch.zeros(1, 2, 3),)]),
    ('''
def forward(x):
    z = x.size(0) / 2
    return x + z
''', [(torch.zeros(1, 2, 3),)]),
    ('''
def forward(x):
    bs = x.size(0) + 1
    return bs - 1
''', [(torch.rand(3, 4),)]),
    ('''
def forward(x):
    if bool(torch.sum(x) > 0):
        x = torch.neg(x)
    return x
''', [(torch.rand(2, 3),), (-torch.rand(2, 3),)]),
    ('''
def forward(x):
    return (torch.prod(x) +
            torch.prod(x, 0) +
            torch.prod(x, 0, False))
''', [(torch.rand(1, 2, 3),)]),
    ('''
def forward(x):
    return torch.prod(x, dtype=torch.double)
''', [(torch.rand(1, 2, 3),)]),
    ('''
def forward(x):
    retval = x[0]
    for i in range(x.size(1)):
        retval += torch.sum(x[0:i], dim=0)
    return retval
''', [(torch.rand(3, 4, 5),)]),
    ('''
def forward(x):
    x += x
    # because we are testing if we emit `if` statement correctly
    # we cannot use `True` as the condition. Constant prop
    # would remove the `if` statements.
    c = torch.sum(x) > 4
    if bool(c):
        if bool(c):
            y = x.t()
        else:
            y = x.t()
    else:
        y = x.t()
    return y
''', [(torch.ones(1, 10, dtype=torch.float),), (torch.zeros(1, 10, dtype=torch.float),)]),
    ('''
def forward(rep):
    return rep, rep, rep

def fn(rep):
    head, *tail = forward(rep)
    return head
''', [(torch.zeros(4, 3),)]),
    ('''
def forward(rep):
    return rep + 1, rep + 2, rep + 3

def fn(rep):
    *head, tail = forward(rep)
    return tail
''', [(torch.ones(4, 3),)]),
    ('''
def add(input, input2):
    return input + input2

def forward(inp):
    return add(inp, inp)
''', [(torch.zeros(4, 3),)]),
    ('''
def sum_starred(a, b, c):
    output = a
    output += b
    output += c
    return output

def forward(rep):
    tup = (rep, rep + 1, rep * 2)
    return sum_starred(*tup)
''', [(torch.ones(4, 3),)]),
]

# left out: what differs by design (docs/language.md §9) or is not implemented
_LEFT_OUT = {
    16: "Tensor.resize_ changes a tensor's shape in place (ember's tensors keep theirs)",
    17: "Tensor.resize_as_ changes a tensor's shape in place",
}
CASES = [c for i, c in enumerate(CASES) if i not in _LEFT_OUT]
