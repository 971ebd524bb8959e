from typing import List


def table(rows: List[List[int]]) -> str:
    widths = [max([len(str(r[c])) for r in rows]) for c in range(len(rows[0]))]
    lines: List[str] = []
    for r in rows:
        cells = [str(v).rjust(widths[i]) for i, v in enumerate(r)]
        lines.append(" | ".join(cells))
    sep = "-+-".join(["-" * w for w in widths])
    return "\n".join([lines[0], sep] + lines[1:])


def wrap(text: str, width: int) -> List[str]:
    words = text.split()
    lines: List[str] = []
    cur = ""
    for w in words:
        if cur and len(cur) + 1 + len(w) > width:
            lines.append(cur)
            cur = w
        else:
            cur = w if not cur else cur + " " + w
    if cur:
        lines.append(cur)
    return lines


CASES = [("table", ([[1, 200, 3], [40, 5, 600]],)),
         ("wrap", ("the quick brown fox jumps over the lazy dog", 10)), ("wrap", ("", 5))]
