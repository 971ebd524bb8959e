from typing import List


def split_join(s: str) -> List[str]:
    words = s.split()
    parts = s.split(",")
    limited = s.split(",", 1)
    right = s.rsplit(",", 1)
    return words + parts + limited + right + ["-".join(words), "".join(parts)]


def lines(s: str) -> List[str]:
    return s.splitlines()


CASES = [("split_join", ("a,b, c,,d",)), ("split_join", ("",)), ("split_join", ("no commas",)),
         ("lines", ("one\ntwo\r\nthree\n",))]
