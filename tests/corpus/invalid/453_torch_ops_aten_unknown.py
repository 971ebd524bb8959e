# error: NameResolutionError
# line: 7
# match: module 'torch.ops.aten' has no attribute 'no_such_op'


def f(x: Tensor) -> Tensor:
    return torch.ops.aten.no_such_op(x)


ENTRY = "f"
