from typing import List


def normalize(s: str) -> str:
    return s.strip().lower().replace("  ", " ").replace(" ", "_")


def slugify(title: str) -> str:
    cleaned = "".join([c if c.isalnum() or c == " " else "" for c in title])
    return "-".join(cleaned.lower().split())


def initials(names: List[str]) -> str:
    return "".join([n.strip()[0].upper() for n in names if n.strip()])


CASES = [("normalize", ("  Hello  World  ",)), ("slugify", ("Hello, World! It's 2024",)),
         ("initials", (["ada", " grace", "", "linus "],))]
