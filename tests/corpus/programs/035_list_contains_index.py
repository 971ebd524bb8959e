from typing import List


def find_all(xs: List[int], target: int) -> List[int]:
    return [i for i in range(len(xs)) if xs[i] == target]


def first_index(xs: List[int], target: int) -> int:
    if target in xs:
        return xs.index(target)
    return -1


def index_error(xs: List[int], target: int) -> int:
    return xs.index(target)


CASES = [("find_all", ([1, 2, 1, 3, 1], 1)), ("first_index", ([4, 5, 6], 6)),
         ("first_index", ([4, 5, 6], 7)), ("index_error", ([1], 2))]
