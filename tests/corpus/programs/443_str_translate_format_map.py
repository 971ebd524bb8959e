def format_from_dict(d: Dict[str, float], s: str) -> List[str]:
    return [s.format(**d), s.format_map(d), "{x:.2f}".format_map(d)]


def translate_table(s: str) -> List[str]:
    t = str.maketrans("lo", "01")
    return [s.translate(t), s.translate({108: "L", 111: ""}), str(t)]


def maketrans_lengths(a: str, b: str) -> str:
    return "x".translate(str.maketrans(a, b))


CASES = [
    ('format_from_dict', ({'x': 1.5, 'y': 2.0}, '{y}/{x}')),
    ('format_from_dict', ({'x': 1.5}, '{y}')),
    ('translate_table', ('hello world',)),
    ('maketrans_lengths', ('x', 'y')),
    ('maketrans_lengths', ('xy', 'z')),
]
