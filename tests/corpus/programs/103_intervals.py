from typing import List, Tuple


def merge_intervals(xs: List[Tuple[int, int]]) -> List[Tuple[int, int]]:
    if not xs:
        return []
    xs = sorted(xs)
    out = [xs[0]]
    for start, end in xs[1:]:
        last_start, last_end = out[-1]
        if start <= last_end:
            out[-1] = (last_start, max(last_end, end))
        else:
            out.append((start, end))
    return out


CASES = [("merge_intervals", ([(1, 3), (8, 10), (2, 6), (15, 18), (17, 20)],)),
         ("merge_intervals", ([],)), ("merge_intervals", ([(1, 4), (4, 5)],))]
