def kinds(x: Union[int, str, List[int]]) -> str:
    if isinstance(x, int | str):
        return "scalar " + str(x)
    return "list of " + str(len(x))


def narrow(x: Union[List[int], int]) -> int:
    if isinstance(x, float | int):
        return x + 1
    return len(x)


CASES = [
    ("kinds", (3,)), ("kinds", ("a",)), ("kinds", ([1, 2],)),
    ("narrow", (4,)), ("narrow", ([1, 2, 3],)),
]
