from typing import Optional


def name_or(name: Optional[str]) -> str:
    return name or "anonymous"


def first_truthy(a: str, b: str, c: str) -> str:
    return a or b or c


def all_truthy(a: int, b: int) -> int:
    return a and b


CASES = [("name_or", (None,)), ("name_or", ("",)), ("name_or", ("bob",)),
         ("first_truthy", ("", "", "c")), ("first_truthy", ("a", "b", "c")),
         ("all_truthy", (2, 3)), ("all_truthy", (0, 3))]
