from typing import List, Dict, Tuple, Optional

def exc_info(k: int) -> List[str]:
    out: List[str] = []
    try:
        if k == 0:
            raise ValueError("bad", 3)
        raise KeyError("kk")
    except Exception as e:
        out.append(type(e).__name__)
        out.append(str(e))
        out.append(repr(e))
    return out

def reraise_bare(k: int) -> str:
    try:
        try:
            raise IndexError("x")
        except IndexError:
            if k > 0:
                raise
            return "swallowed"
    except IndexError as e:
        return "outer " + str(e)

def keyfuncs(d: Dict[str, int]) -> Tuple[List[str], str]:
    return sorted(d, key=d.get), max(d, key=d.get)

def joins(xs: List[int]) -> Tuple[str, str, str]:
    return "".join(map(str, xs)), ",".join(str(x) for x in xs if x), "-".join(reversed([str(x) for x in xs]))

def nested_fmt(x: float, w: int, p: int) -> Tuple[str, str, str]:
    return f"{x:{w}.{p}f}", f"{123456789:_}", f"{x!r:>{w}}"


def rounding() -> List[float]:
    return [float(round(2.5)), float(round(3.5)), float(round(-0.5)), round(2.675, 2), round(1234.5, -2)]

def divmods() -> List[Tuple[int, int]]:
    return [divmod(7, -2), divmod(-7, 2), divmod(-7, -2)]

def sort_key_stable(words: List[str]) -> List[str]:
    ws = list(words)
    ws.sort(key=len)
    return ws + sorted(words, key=str.lower, reverse=True)

def comp_cond(d: Dict[str, int]) -> Dict[str, str]:
    return {k: ("big" if v > 2 else "small") for k, v in d.items() if not k.startswith("_")}

def str_methods(s: str) -> List[str]:
    return [s.removeprefix("ab"), s.removesuffix("yz"), s.center(11, "*"), s.title(), s.swapcase(),
            s.partition("c")[2], str(s.count("a")), s.translate if False else "", s.casefold()]

CASES = [("exc_info", (0,)), ("exc_info", (1,)), ("reraise_bare", (0,)), ("reraise_bare", (1,)),
 ("keyfuncs", ({"a": 3, "b": 1, "c": 2},)), ("joins", ([1, 0, 3],)), ("nested_fmt", (3.14159, 9, 2)),
 ("rounding", ()), ("divmods", ()), ("sort_key_stable", (["bb", "A", "ccc", "a"],)),
 ("comp_cond", ({"a": 1, "_b": 5, "c": 3},)), ("str_methods", ("abcXYZyz",))]
