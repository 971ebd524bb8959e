from typing import List


def mutate(xs: List[int]) -> List[int]:
    ys = xs.copy()
    ys.append(10)
    ys.insert(0, -1)
    ys.extend([7, 8])
    last = ys.pop()
    first = ys.pop(0)
    ys.remove(10)
    ys.reverse()
    ys.append(last * first)
    ys.sort()
    return ys + [ys.index(7), ys.count(7), len(ys)]


def sort_desc(xs: List[int]) -> List[int]:
    xs.sort(reverse=True)
    return xs


def clear(xs: List[int]) -> int:
    n = len(xs)
    xs.clear()
    return n * 100 + len(xs)


CASES = [("mutate", ([3, 1, 2],)), ("mutate", ([7, 7],)), ("sort_desc", ([5, 1, 4, 1],)),
         ("clear", ([1, 2, 3],))]
