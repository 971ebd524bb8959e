from typing import List


def report(xs: List[int]) -> int:
    print("report:", len(xs), "items")
    for i, x in enumerate(xs):
        print(f"  {i}: {x:>4}", end=";\n")
    print("a", "b", sep="-")
    return sum(xs)


CASES = [("report", ([3, 14, 159],))]
