"""PyTorch's test_list_dict.py TestScriptDict and TestScriptList cases (each lambda and
helper the tests apply to a scripted dict or list, written as a function of a Dict[int,
int] or List[int]), and test_typing's singleton tuple unpacking, as CompilationUnit
sources with the tests' inputs."""

import torch

D = lambda: {1: 2, 3: 4}
L = lambda: [1, 2, 3, 4]

CASES = [
('''
def fn(d: Dict[int, int]):
    return repr(d)
''', [({1: 2},)]),
('''
def fn(d: Dict[int, int]):
    return bool(d)
''', [({1: 2},), ({},)]),
('''
def sum_keys(input_dict: Dict[int, int]):
    s = 0
    for k in input_dict:
        s += k

    return s
''', [(D(),)]),
('''
def sum_pair_product(input_dict: Dict[int, int]):
    s = 0
    for k, v in input_dict.items():
        s += k * v

    return s
''', [(D(),)]),
('''
def fn(d: Dict[int, int], k: int):
    return d[k]
''', [(D(), 1), (D(), 4), (D(), 2)]),
('''
def fn(input_dict: Dict[int, int]):
    input_dict[1] = 10
    input_dict[3] = 11
    return input_dict
''', [(D(),)]),
('''
def fn(input_dict: Dict[int, int]):
    return (
        1 in input_dict,
        2 not in input_dict,
        3 in input_dict,
        4 not in input_dict,
    )
''', [(D(),)]),
('''
def del_fn(input_dict: Dict[int, int]):
    del input_dict[1]
    return input_dict
''', [(D(),)]),
('''
def del_fn_raises(input_dict: Dict[int, int]):
    del input_dict[10]
''', [(D(),)]),
('''
def fn(d: Dict[int, int]):
    return len(d)
''', [({1: 2},), ({},)]),
('''
def dict_add(d: Dict[int, int], k: int, v: int):
    d[k] = v

def fn(data: Dict[int, int]):
    dict_add(data, 3, 4)
    return len(data), 3 in data, data[3]
''', [({1: 2},)]),
('''
def fn(l: List[int]):
    return repr(l)
''', [([1],)]),
('''
def fn(l: List[int]):
    return bool(l)
''', [([1],), ([],)]),
('''
def sum_elements(input_list: List[int]):
    s = 0
    for k in input_list:
        s += k

    return s
''', [(L(),)]),
('''
def fn(l: List[int], i: int):
    return l[i]
''', [(L(), 1), (L(), 3), (L(), -1), (L(), 5), (L(), -7)]),
('''
def fn(l: List[int]):
    return l[1:3], l[:], l[1:], l[:2], l[-1], l[-1::-1]
''', [(L(),)]),
('''
def setitem(input_list: List[int]):
    input_list[1] = 10
    input_list[3] = 11
    input_list[-1] = 12
    return input_list
''', [(L(),)]),
('''
def setitem_slice(input_list: List[int]):
    input_list[:4:2] = [10, 11]
    input_list[-2:] = [15, 16]
    return input_list
''', [(L(),)]),
('''
def out_of_range(input_list: List[int]):
    input_list[11] = 3
''', [(L(),)]),
('''
def out_of_range_negative(input_list: List[int]):
    input_list[-11] = 3
''', [(L(),)]),
('''
def fn(input_list: List[int]):
    return (
        1 in input_list,
        2 not in input_list,
        3 in input_list,
        4 not in input_list,
    )
''', [(L(),)]),
('''
def del_fn(input_list: List[int]):
    del input_list[1]
    return input_list
''', [(L(),)]),
('''
def del_fn_out_of_range(input_list: List[int]):
    del input_list[10]
''', [(L(),)]),
('''
def fn(l: List[int]):
    return len(l)
''', [(L(),), ([],)]),
('''
def fn(l: List[int]):
    return l.count(3)
''', [([1, 2, 3, 3],)]),
('''
def fn(l: List[int], v: int):
    l.remove(v)
    return l
''', [([1, 2, 3], 1), ([1, 2, 3], 10)]),
('''
def fn(l: List[int]):
    l.append(1)
    return l
''', [([4, 3, 2],)]),
('''
def fn(l: List[int]):
    l.clear()
    return l
''', [([4, 3, 2],)]),
('''
def extend_list(input_list: List[int]):
    input_list.extend([4, 5, 6])
    return input_list
''', [([1, 2, 3],)]),
('''
def fn(l: List[int], i: int):
    l.insert(i, 3)
    return l
''', [([1, 2, 4], 3), ([1, 2, 4], 0), ([1, 2, 4], -2)]),
('''
def fn(l: List[int]):
    return l.pop(), l
''', [([1, 2, 3, 4, 5],)]),
('''
def fn(l: List[int], i: int):
    return l.pop(i), l
''', [([1, 2, 3, 4, 5], 2), ([1, 2, 3, 4, 5], -3), ([1, 2, 3, 4, 5], 10)]),
('''
def list_add(l: List[int], e: int):
    l.append(e)

def fn(l: List[int]):
    list_add(l, 3)
    return len(l), 3 in l, l[2]
''', [([1, 2],)]),
('''
def foo(a):
    (b,) = (a,)
    return b + 1
''', [(torch.rand(3),)]),
]
