"""Overloaded methods: `@torch.jit._overload_method` declarations, TorchScript's way to
give one method several signatures (torchvision's DenseNet layer takes a Tensor or a list
of them).

```python
@torch.jit._overload_method
def forward(self, x: List[Tensor]) -> Tensor: ...
@torch.jit._overload_method
def forward(self, x: Tensor) -> Tensor: ...
def forward(self, x):          # the implementation
    if isinstance(x, Tensor): ...
```

As in TorchScript, the implementation's body is compiled once per declaration, with the
declaration's parameter and return types (so `isinstance` on a parameter is decided at
compile time), and a call runs the first declaration whose parameters take the
arguments. Called directly as an entry point, the implementation has its own signature.
"""

from __future__ import annotations

import dataclasses

from ember.errors import TypeCheckError, UnsupportedError
from ember.frontend.compiler import FuncInfo
from ember.frontend.typing_ import ErrorType, show
from ember.ir import types as T

OVERLOAD_DECORATORS = ("_overload_method",)
"""Last part of a decorator's dotted name that marks an overload declaration."""


def is_overload_decorator(name: str) -> bool:
    return name.rsplit(".", 1)[-1] in OVERLOAD_DECORATORS


class OverloadInfo(FuncInfo):
    """One declaration of an overloaded method: the implementation's body with the
    declaration's signature. `declaration()` gives the declaration's AST when needed."""

    def __init__(self, impl: FuncInfo, index: int, declaration):
        self._impl, self._declaration, self._node = impl, declaration, None
        super().__init__(impl.name, None, None, impl.scope, impl.pyfn, impl.owner)
        self.index = index
        self.static = impl.static

    @property
    def node(self):
        if self._node is None:
            impl, decl = self._impl.node, self._declaration()
            _check_parameters(impl, decl)
            args = [dataclasses.replace(d, default=i.default) if i.default is not None else d
                    for d, i in zip(decl.args, impl.args)]  # Python runs impl's defaults
            self._node = dataclasses.replace(impl, args=args, returns=decl.returns)
        return self._node

    @node.setter
    def node(self, value) -> None:
        pass  # made from the implementation and the declaration

    @property
    def source(self):
        return self._impl.source

    @source.setter
    def source(self, value) -> None:
        pass


def _check_parameters(impl, decl) -> None:
    """TorchScript's rule: a declaration names the implementation's parameters."""
    want = [a.arg for a in impl.args]
    got = [a.arg for a in decl.args]
    if want != got:
        raise UnsupportedError(
            f"this overload of '{impl.name}' has parameters ({', '.join(got)}) but the "
            f"implementation has ({', '.join(want)}); an overload declaration must name the "
            "implementation's parameters", decl.name_span or decl.span)


def call_overloaded(em, info, node, leading):
    """Call the first overload of info whose parameters take node's arguments."""
    from ember.frontend.userfuncs import call_user_function, signature_of

    values = [em.value(a) for a in node.args]
    keywords = {k.arg: em.value(k.value) for k in node.keywords}
    if any(isinstance(v.type, ErrorType) for v in [*values, *keywords.values()]):
        from ember.frontend.function import Poison
        return Poison()
    tried = []
    for ov in info.overloads:
        names, types, defaults, _ = signature_of(em.c, ov)
        bound = _bind(names[len(leading):], types[len(leading):], defaults, values, keywords)
        if bound is not None:
            args = [em.constant(v.value, node) if isinstance(v, _Default) else v
                    for v in bound]
            return call_user_function(em, ov, node, leading, values=args)
        tried.append("(" + ", ".join(f"{n}: {show(t)}" for n, t in
                                     zip(names[len(leading):], types[len(leading):])) + ")")
    given = ", ".join([show(v.type) for v in values] +
                      [f"{k}={show(v.type)}" for k, v in keywords.items()])
    return em.error(f"no overload of {info.node.name}() takes ({given}); its overloads take "
                    + " or ".join(tried), node.span, TypeCheckError)


class _Default:
    """A parameter's default value, filled in for a keyword call that skips it."""

    def __init__(self, value):
        self.value = value


def _bind(names, types, defaults, values, keywords):
    """The arguments in parameter order (defaults as _Default) if every value fits its
    parameter's type, else None."""
    if len(values) > len(names) or any(k not in names for k in keywords):
        return None
    first_default = len(names) - len(defaults)
    out = []
    for i, (name, t) in enumerate(zip(names, types)):
        if i < len(values):
            if name in keywords:
                return None
            v = values[i]
        elif name in keywords:
            v = keywords[name]
        elif i >= first_default:
            out.append(_Default(defaults[i - first_default]))
            continue
        else:
            return None
        if not _fits(v, t):
            return None
        out.append(v)
    while out and isinstance(out[-1], _Default):
        out.pop()  # trailing defaults: the call fills them in
    return out


def _fits(v, want) -> bool:
    """Whether v converts to want at a call (the rules of FunctionEmitter.coerce)."""
    from ember.frontend.function import _NUMERIC_CONV, _is_fresh_empty
    got = v.type
    if got == want or T.is_subtype(got, want) or _is_fresh_empty(v, want):
        return True
    return any((got, m) in _NUMERIC_CONV for m in T.members(want))
