from typing import List, Optional, Union


def kind(x: Union[int, float, str]) -> str:
    if isinstance(x, (int, float)):
        return "number"
    return "text"


def opt_kind(x: Optional[float]) -> str:
    if isinstance(x, float):
        return f"{x:.1f}"
    return "missing"


def count_numbers(xs: List[Union[int, str]]) -> int:
    return len([x for x in xs if isinstance(x, int)])


CASES = [("kind", (1,)), ("kind", (2.5,)), ("kind", ("s",)), ("opt_kind", (None,)),
         ("opt_kind", (2.25,)), ("count_numbers", ([1, "a", 2, "b", 3],))]
