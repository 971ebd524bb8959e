from typing import Dict, List, NamedTuple


class Item(NamedTuple):
    name: str
    price: float
    qty: int


class Inventory:
    def __init__(self):
        self.items: Dict[str, Item] = {}

    def add(self, name: str, price: float, qty: int) -> None:
        if name in self.items:
            old = self.items[name]
            self.items[name] = Item(name, price, old.qty + qty)
        else:
            self.items[name] = Item(name, price, qty)

    def remove(self, name: str, qty: int) -> None:
        if name not in self.items:
            raise KeyError(name)
        it = self.items[name]
        if it.qty < qty:
            raise ValueError(f"only {it.qty} {name} left")
        self.items[name] = Item(name, it.price, it.qty - qty)

    def value(self) -> float:
        return sum([it.price * it.qty for it in self.items.values()])


def scenario(n: int) -> List[str]:
    inv = Inventory()
    inv.add("apple", 0.5, 10)
    inv.add("pear", 0.75, 4)
    inv.add("apple", 0.5, n)
    out = [f"{inv.value():.2f}"]
    try:
        inv.remove("pear", 10)
    except ValueError as e:
        out.append(str(e))
    try:
        inv.remove("kiwi", 1)
    except KeyError as e:
        out.append("no " + str(e))
    inv.remove("apple", 3)
    out.append(f"{inv.value():.2f}")
    return out


CASES = [("scenario", (5,)), ("scenario", (0,))]
