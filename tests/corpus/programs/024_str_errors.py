def index_missing(s: str, sub: str) -> int:
    return s.index(sub)


def ord_long(s: str) -> int:
    return ord(s)


CASES = [("index_missing", ("hello", "z")), ("index_missing", ("hello", "l")),
         ("ord_long", ("ab",)), ("ord_long", ("a",))]
