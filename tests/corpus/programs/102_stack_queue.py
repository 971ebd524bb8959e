from typing import List


class Stack:
    def __init__(self):
        self.items: List[int] = []

    def push(self, x: int) -> None:
        self.items.append(x)

    def pop(self) -> int:
        if not self.items:
            raise IndexError("pop from empty stack")
        return self.items.pop()

    def size(self) -> int:
        return len(self.items)


class Queue:
    def __init__(self):
        self.inbox = Stack()
        self.outbox = Stack()

    def enqueue(self, x: int) -> None:
        self.inbox.push(x)

    def dequeue(self) -> int:
        if self.outbox.size() == 0:
            while self.inbox.size() > 0:
                self.outbox.push(self.inbox.pop())
        return self.outbox.pop()


def run(n: int) -> List[int]:
    q = Queue()
    out: List[int] = []
    for i in range(n):
        q.enqueue(i)
        if i % 2 == 1:
            out.append(q.dequeue())
    return out


def underflow() -> int:
    return Stack().pop()


CASES = [("run", (7,)), ("underflow", ())]
