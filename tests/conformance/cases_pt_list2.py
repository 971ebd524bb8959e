"""PyTorch's test_list_dict.py (TestList) checkScript cases not ported before: removing
tensors, extend/copy, min/max of int, bool and float lists (empty ones raise), tolist()
typed by the return annotation."""

import torch

torch.manual_seed(0)
CASES = [
('''
def test_list_remove_tensor():
    a = [torch.ones(1), torch.zeros(1), torch.ones(2)]
    a.remove(torch.zeros(1))
    return len(a) == 2
''', [()]),
('''
def test_list_remove2():
    a = [1]
    a.remove(1)
    return len(a) == 0
''', [()]),
('''
def extend_list(a: List[Tensor], b: List[Tensor]) -> List[Tensor]:
    a.extend(b)
    return a
''', [([], []), ([torch.ones(2)], [torch.zeros(2), torch.ones(2)])]),
('''
def copy_list(a: List[int]) -> List[int]:
    return a.copy()
''', [([],), ([1, 2, 3],)]),
]
for t in ["int", "bool", "float"]:
    for f in ["min", "max"]:
        conv = {"int": int, "bool": bool, "float": float}[t]
        lists = [[1], [2, 1, 2], [-3, 4, 2], [-2, -7, 1, 4], [2, 1, 0, 4], []]
        CASES.append((f"\ndef {f}_{t}list(li: List[{t}]) -> {t}:\n    return {f}(li)\n", [([conv(x) for x in l],) for l in lists]))
CASES.append(("\ndef to_list_missing_type_annotation(x: torch.Tensor) -> List[float]:\n    li = x.tolist()\n    return li\n", [(torch.randn(5),)]))

# TestDict cases not ported before
D = {"a": torch.ones(1), "b": torch.ones(1) + 1, "c": torch.ones(1) + 2}
CASES += [
    ('''
def if_predicate(d: Dict[int, int]):
    if d:
        s, t = 0, 0
        for k, v in d.items():
            s += k
            t += v
        return s, t
    else:
        return -1, -1
''', [({1: 2, 3: 5},), ({},)]),
    ('''
def while_predicate(d: Dict[int, int]):
    while d:
        d.clear()
''', [({1: 2, 3: 5},), ({},)]),
    ('''
def ternary_predicate(d: Dict[int, int]):
    return "non-empty" if d else "empty"
''', [({1: 2, 3: 5},), ({},)]),
    ('''
def test_dictliteral_is_typed_from_annotation():
    x: Dict[str, Optional[int]] = {"foo": None, "bar": None, "baz": None}
    return x
''', [()]),
    ('''
def test_dictcomprehension_is_typed_from_annotation():
    metasyntactics = ["foo", "bar", "baz"]
    x: Dict[str, Optional[int]] = {word: None for word in metasyntactics}
    return x
''', [()]),
    ('''
def fn(x: Dict[str, int]) -> Dict[str, int]:
    del x["hi"]
    return x
''', [({"hi": 2, "bye": 3},), ({},)]),
    ('''
def get_default(x: Dict[str, Tensor], key: str) -> Optional[Tensor]:
    return x.get(key, torch.ones(2, 2))
''', [(D, "a"), (D, "doesn't exist")]),
]
