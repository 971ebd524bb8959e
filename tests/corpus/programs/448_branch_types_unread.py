def unread(c: bool) -> int:
    if c:
        y = "foo"
    else:
        y = 1
    return 2


def rebound(c: bool) -> str:
    if c:
        y = "foo"
    else:
        y = 1
    y = "after"
    return y


CASES = [
    ("unread", (True,)), ("unread", (False,)),
    ("rebound", (True,)), ("rebound", (False,)),
]
