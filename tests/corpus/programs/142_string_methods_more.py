from typing import List


def more(s: str) -> List[str]:
    head, sep, tail = s.partition("=")
    a, b, c = s.rpartition("/")
    return [head, sep, tail, a, b, c, s.removeprefix("key"), s.removesuffix("/x"),
            s.expandtabs(4), s.casefold()]


def checks(s: str) -> List[bool]:
    return [s.isdecimal(), s.isnumeric(), s.isidentifier(), s.istitle(), s.isspace(),
            s.islower(), s.isupper()]


CASES = [("more", ("key=a/b/x",)), ("checks", ("Hello World",)), ("checks", ("abc_1",)),
         ("checks", ("123",))]
