from typing import List


def raise_kind(n: int) -> None:
    if n == 0:
        raise KeyboardInterrupt("stop")
    if n == 1:
        raise ValueError("v")


def handlers(n: int) -> List[str]:
    out: List[str] = []
    try:
        raise_kind(n)
    except BaseException as e:
        out.append("base " + str(e))
    try:
        raise_kind(n)
    except:  # noqa: E722 - what this program tests
        out.append("bare")
    try:
        try:
            raise_kind(n)
        except Exception:
            out.append("exception")
    except KeyboardInterrupt:
        out.append("outer interrupt")
    try:
        try:
            raise_kind(n)
        except:  # noqa: E722
            out.append("re-raise")
            raise
    except (ValueError, BaseException):
        out.append("tuple")
    return out


CASES = [("handlers", (0,)), ("handlers", (1,)), ("handlers", (2,))]
