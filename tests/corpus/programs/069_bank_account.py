from typing import Dict, List


class Account:
    def __init__(self, owner: str, balance: float):
        self.owner = owner
        self.balance = balance
        self.log: List[str] = []

    def deposit(self, amount: float) -> None:
        if amount <= 0:
            raise ValueError("deposit must be positive")
        self.balance += amount
        self.log.append(f"+{amount:.2f}")

    def withdraw(self, amount: float) -> bool:
        if amount > self.balance:
            self.log.append(f"denied {amount:.2f}")
            return False
        self.balance -= amount
        self.log.append(f"-{amount:.2f}")
        return True


def simulate(ops: List[float]) -> Dict[str, str]:
    acct = Account("ann", 100.0)
    for op in ops:
        if op >= 0:
            acct.deposit(op)
        else:
            acct.withdraw(-op)
    return {"owner": acct.owner, "balance": f"{acct.balance:.2f}", "log": ";".join(acct.log)}


def bad_deposit(x: float) -> float:
    a = Account("bob", 0.0)
    a.deposit(x)
    return a.balance


CASES = [("simulate", ([50.0, -20.0, -500.0, 10.5],)), ("simulate", ([],)),
         ("bad_deposit", (-1.0,)), ("bad_deposit", (2.5,))]
