"""PyTorch's test_list_dict.py checkScript cases (TestList), ported as CompilationUnit
sources: the inputs are PyTorch's, the programs are written out as the tests define them."""

import torch

A3 = torch.tensor([[[1, 11], [2, 22]], [[3, 33], [4, 44]], [[5, 55], [6, 66]]])

CASES = [
    ('''
def if_predicate(l: List[int]):
    if l:
        s = 0
        for n in l:
            s += n
        return s
    else:
        return -1
''', [([1, 2, 3],), ([],)]),
    ('''
def while_predicate(l: List[int]):
    s = 0
    while l:
        s += l.pop()
''', [([1, 2, 3],), ([],)]),
    ('''
def ternary_predicate(l: List[int]):
    return "non-empty" if l else "empty"
''', [([1, 2, 3],), ([],)]),
    ('''
def int_in(x: List[int]) -> bool:
    return 2 in x
''', [([1, 2, 3],), ([1, 3, 3],)]),
    ('''
def float_in(x: List[float]) -> bool:
    return 2.0 in x
''', [([1.0, 2.0, 3.0],), ([1.0, 3.0, 3.0],)]),
    ('''
def str_in(x: List[str]) -> bool:
    return "hi" in x
''', [(["not", "here"],), (["hi", "bye"],), ([],)]),
    ('''
def reassign():
    x = [1]
    if 1 == 1:
        x = [2, 3]
    return
''', [()]),
    ('''
def reassign_from_empty_builtin():
    x = torch.jit.annotate(List[int], [])
    if 1 == 1:
        x = [1, 2, 3]
    y = torch.jit.annotate(List[float], [])
    if 1 == 1:
        y = [1.0, 2.0, 3.0]
    z = []
    if 1 == 1:
        z = [torch.randn([1])]
    return
''', [()]),
    ('''
def test_listliteral_is_typed_from_annotation():
    x: List[Optional[int]] = [None, None, None]
    return x
''', [()]),
    ('''
def test_listcomprehension_is_typed_from_annotation():
    x: List[Optional[int]] = [None for _ in range(3)]
    return x
''', [()]),
    ('''
def fn(x: List[int]) -> List[int]:
    del x[1]
    return x
''', [([1, 2, 3, 4],)]),
    ('''
def fn2(x: List[int]) -> List[int]:
    del x[100]
    return x
''', [([],)]),
    ('''
def foo():
    return (
        list([1, 2, 3]),
        list(("a", "b")),
        list(range(5)),
        list("abcdefg"),
    )
''', [()]),
    ('''
def foo2():
    x: List[int] = list()
    x.append(1)
    return (x,)
''', [()]),
    ('''
def foo3():
    return list(list("abc"))
''', [()]),
    ('''
def fn():
    return dict(foo=1, bar=2, baz=3)
''', [()]),
    ('''
def fn():
    return dict(foo=[1, 2, 3], bar=[4, 5, 6], baz=[7, 8, 9])
''', [()]),
    ('''
def fn():
    return dict([("foo", 1), ("bar", 2), ("baz", 3)])
''', [()]),
    ('''
def fn():
    return dict([])
''', [()]),
    ('''
def fn():
    return dict(zip(["foo", "baz", "bar"], [1, 2, 3]))
''', [()]),
    ('''
def fn():
    return {"foo": 1, "bar": 2, "baz": 3}
''', [()]),
    ('''
def fn():
    return dict({"foo": 1, "bar": 2}, baz=3)
''', [()]),
    ('''
def fn():
    return {i: chr(i + 65) for i in range(4)}
''', [()]),
    ('''
def fn():
    return dict({chr(65 + i): i for i in range(4)}, foo=2)
''', [()]),
    ('''
def fn():
    return {}
''', [()]),
    ('''
def fn():
    x: Dict[str, int] = dict()
    x["foo"] = 1
    return x
''', [()]),
    ('''
def fn():
    return dict(dict(foo=1, bar=2, baz=3))
''', [()]),
    ('''
def fn():
    d = {"foo": 1, "bar": 2}
    return dict(d)
''', [()]),
    ('''
def fn():
    d = {"foo": 1, "bar": 2}
    return dict(d, baz=3)
''', [()]),
    ('''
def jit_min_list(a: List[bool], b: List[bool]) -> List[bool]:
    return min(a, b)
''', [([True, False], [False, True])]),
    ('''
def jit_min_list(a: List[int], b: List[int]) -> List[int]:
    return min(a, b)
''', list(zip([[1, 8, 8], [2, 1, 1], [], [2], [1], [1, 2, 3]],
              [[2, 1, 1], [1, 8, 8], [], [1], [], [1, 2]]))),
    ('''
def jit_min_list_float(a: List[float], b: List[float]) -> List[float]:
    return min(a, b)
''', list(zip([[1.0, 8.0, 8.0], [2.0, 1.0, 1.0], [], [2.0], [1.0], [1.0, 2.0, 3.0]],
              [[2.0, 1.0, 1.0], [1.0, 8.0, 8.0], [], [1.0], [], [1.0, 2.0]]))),
    ('''
def jit_max_list_bool(a: List[bool], b: List[bool]) -> List[bool]:
    return max(a, b)
''', list(zip([[], [], [], [False], [True], [False, True], [True, True], [False, False, False],
               [False, False, True]],
              [[], [False], [True], [True], [False], [True, True], [False, True],
               [False, False, True], [False, False, False]]))),
    ('''
def index():
    a = [1, 2, 3]
    return a[1]
''', [()]),
    ('''
def negative_index():
    a = [1, 2, 3]
    return a[-1]
''', [()]),
    ('''
def bad_index():
    a = [1, 2, 3]
    return a[4]
''', [()]),
    ('''
def bad_negative_index():
    a = [1, 2, 3]
    return a[-5]
''', [()]),
    ('''
def func():
    a = [1, 2, 3]
    return len(a) == 3
''', [()]),
    ('''
def func2():
    a = []
    return len(a) == 0
''', [()]),
    ('''
def test_equality_str():
    a = ["foo", "bar"]
    b = ["foo", "bar"]
    return a == b
''', [()]),
    ('''
def test_inequality_str():
    a = ["foo", "bar"]
    b = ["foo", "bar", "food"]
    return a != b
''', [()]),
    ('''
def test_list_equality_as_cond():
    a = [1, 2, 3]
    b = [3]
    if a == b:
        c = 1
    else:
        c = 2
    return c
''', [()]),

    ('''
def test_list_add_empty():
    a = [1, 2, 3]
    b = torch.jit.annotate(List[int], [])
    c = a + b
    return c == [1, 2, 3]
''', [()]),
    ('''
def test_tensor_list_equality():
    t1 = torch.ones([1, 1])
    t2 = torch.ones([1, 1])
    x = [t1, t2]
    y = [t2, t1]
    return x == y
''', [()]),
    ('''
def test_invalid_list_equality():
    t1 = torch.ones([2, 2])
    t2 = torch.ones([2, 2])
    x = [t1, t2]
    y = [t2, t1]
    return x == y
''', [()]),
    ('''
def func():
    li_1 = []
    li_2 = []
    li_3 = []
    li_1.sort()
    li_2.sort(reverse=True)
    li_4 = sorted(li_3)
    return li_1, li_2, li_3, li_4
''', [()]),
    ('''
def func():
    li_1 = [1, 3, 2]
    li_2 = [1, 3, 2]
    li_3 = [1, 3, 2]
    li_1.sort()
    li_2.sort(reverse=True)
    li_4 = sorted(li_3)
    return li_1, li_2, li_3, li_4
''', [()]),
    ('''
def func():
    li_1 = [True, False, True]
    li_2 = [True, False, True]
    li_3 = [True, False, True]
    li_1.sort()
    li_2.sort(reverse=True)
    li_4 = sorted(li_3)
    return li_1, li_2, li_3, li_4
''', [()]),
    ('''
def func():
    li_1 = [1.2, .2, 3.2]
    li_2 = [1.2, .2, 3.2]
    li_3 = [1.2, .2, 3.2]
    li_1.sort()
    li_2.sort(reverse=True)
    li_4 = sorted(li_3)
    return li_1, li_2, li_3, li_4
''', [()]),
    ('''
def func():
    li_1 = [torch.tensor(1.0), torch.tensor(0.2), torch.tensor(0.5)]
    li_2 = [torch.tensor(1.0), torch.tensor(0.2), torch.tensor(0.5)]
    li_3 = [torch.tensor(1.0), torch.tensor(0.2), torch.tensor(0.5)]
    li_1.sort()
    li_2.sort(reverse=True)
    li_4 = sorted(li_3)
    return li_1, li_2, li_3, li_4
''', [()]),
    ('''
def func():
    li_1 = [torch.tensor(5), torch.tensor(-2), torch.tensor(4)]
    li_2 = [torch.tensor(5), torch.tensor(-2), torch.tensor(4)]
    li_3 = [torch.tensor(5), torch.tensor(-2), torch.tensor(4)]
    li_1.sort()
    li_2.sort(reverse=True)
    li_4 = sorted(li_3)
    return li_1, li_2, li_3, li_4
''', [()]),
    ('''
def test_fail(x: List[Tensor]) -> List[Tensor]:
    x.sort()
    return x
''', [([torch.zeros([2]), torch.zeros([2])],)]),
    ('''
def test_sorted_copy():
    a = [torch.tensor(2), torch.tensor(0), torch.tensor(1)]
    b = sorted(a)
    a[0] = torch.tensor(10)
    return a, b
''', [()]),
    ('''
def test_backward_slice():
    a = [0, 1, 2, 3, 4]
    return a[3:2] == torch.jit.annotate(List[int], [])
''', [()]),
    ('''
def test_index_slice1(x):
    x = x[:, :, [0, 1]]
    return x
''', [(A3,)]),
    ('''
def test_index_slice2(x):
    x = x[[2, 1, 0], :, :]
    return x
''', [(A3,)]),
    ('''
def test_index_slice3(x):
    x = x[[0, 1], :, [1]]
    return x
''', [(A3,)]),
    ('''
def test_index_slice_empty_list(x):
    empty_list: List[int] = []
    x = x[empty_list, :, :]
    return x
''', [(A3,)]),
    ('''
def test_index_slice_out_of_bounds_index(x):
    x = x[[4], :, :]
    return x
''', [(A3,)]),
    ('''
def list_cast() -> int:
    li = [int(i) for i in [torch.tensor(0), torch.tensor(1), torch.tensor(2)]]
    return li[0] + li[1] + li[2]
''', [()]),
    ('''
def foo(names: List[int], results: List[int]) -> List[Tuple[int, int]]:
    return [(k + 5, v - 2) for k, v in zip(names, results)]
''', [([1, 2, 4], [4, 7, 9]), ([5], [4, 7, 9])]),
    ('''
def fn(x: int) -> List[int]:
    return [i for i in range(x)]
''', [(9,), (0,), (-1,)]),
    ('''
def changes_type():
    a = [float(i) for i in range(5)]
    b = [float(i) for i in [1, 2, 3, 4]]
    c = [(float(i), j) for i, j in enumerate([1, 2, 3, 8])]
    return a, b, c
''', [()]),
    ('''
def test_zero_iter():
    return [str(i) for i, j in zip("", "")]
''', [()]),
    ('''
def bar(y: List[int]) -> None:
    y.append(4)

def foo():
    x = [1, 2, 3]
    bar(x)
    return x
''', [()]),
    ('''
def test_reverse_empty():
    a = []
    a.reverse()
    return a == []
''', [()]),
    ('''
def test_tensor_reverse():
    a = [torch.tensor(1), torch.tensor(2)]
    a.reverse()
    return a == [torch.tensor(2), torch.tensor(1)]
''', [()]),
    ('''
def test_pop_empty():
    a = torch.jit.annotate(List[int], [])
    return a.pop()
''', [()]),
    ('''
def test_list_insert_neg_out_of_bounds():
    a = [1, 2, 3, 4]
    a.insert(-10, 5)
    return a == [5, 1, 2, 3, 4]
''', [()]),
    ('''
def test_list_remove_not_existing():
    a = [1, 2, 3, 4]
    a.remove(5)
    return a
''', [()]),
    ('''
def list_index_not_existing():
    a = [4, 1, 3, 2]
    i = a.index(5)
    return i
''', [()]),
    ('''
def tensor_list_index():
    a = [torch.tensor(4), torch.tensor(1), torch.tensor(3), torch.tensor(2)]
    i = a.index(torch.tensor(3))
    return i == 2
''', [()]),
    ('''
def tensor_list_index_not_existing():
    a = [torch.tensor(4), torch.tensor(1), torch.tensor(3), torch.tensor(2)]
    i = a.index(torch.tensor(5))
    return i
''', [()]),
]
