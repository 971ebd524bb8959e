def describe(spec: str) -> List[str]:
    d = torch.device(spec)
    return [str(d), d.type]


def with_index(kind: str, i: int) -> str:
    return str(torch.device(kind, i))


def same_device(xs: List[float]) -> bool:
    x = torch.tensor(xs)
    return x.device == torch.device("cpu") and x.device.type == "cpu"


def moved(xs: List[float], spec: str) -> List[float]:
    d: torch.device = torch.device(spec)
    return (torch.tensor(xs).to(d) * 2.0).tolist()


def on_device(n: int) -> List[float]:
    return torch.zeros(n, device=torch.device("cpu")).tolist()


CASES = [
    ("describe", ("cpu",)), ("describe", ("cuda:1",)), ("describe", ("meta",)),
    ("describe", ("gpu",)), ("describe", ("cuda:x",)),
    ("with_index", ("cuda", 2)), ("with_index", ("cpu", 0)),
    ("same_device", ([1.0, 2.0],)),
    ("moved", ([1.0, 2.5], "cpu")),
    ("on_device", (3,)),
]
