def predicates(s: str) -> List[bool]:
    return [s.isprintable(), s.isascii(), s.isidentifier(), s.isdecimal(), s.isnumeric(),
            s.istitle(), s.isdigit(), s.isalnum(), s.isspace()]


def transforms(s: str) -> List[str]:
    return [s.casefold(), s.swapcase(), s.title(), s.center(9, "*"), s.zfill(8),
            s.expandtabs(4), s.ljust(7, "."), s.rjust(7), s.capitalize()]


def splits(s: str) -> Tuple[Tuple[str, str, str], Tuple[str, str, str], List[str]]:
    return s.partition("-"), s.rpartition("-"), s.splitlines(True)


CASES = [
    ("predicates", ("Hello World",)), ("predicates", ("a\tb",)), ("predicates", ("",)),
    ("predicates", ("\u00e9t\u00e9",)), ("predicates", ("\u0663\u0664",)),
    ("predicates", ("\u00bd",)), ("predicates", ("_x1",)), ("predicates", ("\u200b",)),
    ("transforms", ("Stra\u00dfe\tok",)), ("transforms", ("-42",)), ("transforms", ("",)),
    ("splits", ("a-b-c\nd\r\ne",)), ("splits", ("none",)),
]
