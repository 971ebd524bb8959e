from typing import List


class AppError(Exception):
    """Base of this program's errors."""


class ParseError(AppError, ):
    pass


class Limit(ValueError):
    pass


def parse(s: str) -> int:
    if s == "":
        raise ParseError("empty")
    if not s.isdigit():
        raise ParseError
    v = int(s)
    if v > 100:
        raise Limit(v)
    return v


def total(xs: List[str]) -> str:
    out = 0
    msgs: List[str] = []
    for s in xs:
        try:
            out += parse(s)
        except ParseError as e:
            msgs.append("parse:" + str(e))
        except (KeyError, ValueError) as e:
            msgs.append("value:" + str(e))
    return str(out) + " " + ",".join(msgs)


def by_base(s: str) -> str:
    try:
        return str(parse(s))
    except AppError as e:
        return "app " + str(e)


CASES = [("total", (["1", "", "x", "500", "7"],)), ("by_base", ("",)), ("by_base", ("9",)),
         ("parse", ("",)), ("parse", ("1000",)), ("by_base", ("1000",))]
