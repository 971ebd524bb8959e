"""PyTorch's test_class_type.py checkScript-style cases not ported before (a class that
constructs itself in a method, an Optional field of another class), as CompilationUnit
sources."""

import torch
torch.manual_seed(0)
CASES = [
('''
class LSTMStateStack(object):
    def __init__(self, num_layers, hidden_size):
        # type: (int, int) -> None
        self.num_layers = num_layers
        self.hidden_size = hidden_size
        self.last_state = (
            torch.zeros(num_layers, 1, hidden_size),
            torch.zeros(num_layers, 1, hidden_size),
        )
        self.stack = [(self.last_state[0][-1], self.last_state[0][-1])]

    def copy(self):
        other = LSTMStateStack(self.num_layers, self.hidden_size)
        other.stack = list(self.stack)
        return other

def f(n: int):
    s = LSTMStateStack(n, 3)
    c = s.copy()
    return len(c.stack), c.num_layers, c.stack[0][0].shape
''', [(2,)]),
('''
class Leaf(object):
    def __init__(self):
        self.x = 1

class Tree(object):
    def __init__(self):
        self.child = torch.jit.annotate(Optional[Leaf], None)

    def add_child(self, child):
        # type: (Leaf) -> None
        self.child = child

def f():
    t = Tree()
    a = t.child is None
    t.add_child(Leaf())
    c = t.child
    return a, c is not None and c.x == 1
''', [()]),
]
