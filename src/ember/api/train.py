"""`ember.train_step(model, loss_fn, optimizer)`: one compiled training step.

    step = ember.train_step(model, torch.nn.CrossEntropyLoss(), ember.optim.SGD(0.1, 0.9))
    loss = step(x, target)          # forward, loss, backward, update; returns the loss
    step.state_dict()               # {torch name: np.ndarray}
    step.save("train.ember")        # ember.mobile.load gives step / forward / state_dict

The model is frozen as ember.script freezes it, so its parameters are tensor constants
of the IR module (`@self.fc1.weight`). The step's IR:

* `__model(params…, inputs…)`: the forward with each parameter constant made a
  parameter of the function;
* `__objective(params…, inputs…, target)`: the loss of `__model`'s output, differentiated
  with respect to the parameters (ember.autodiff) into `__objective$vjp`;
* `step(inputs…, target) -> float`: calls the adjoint on the parameter constants and
  updates them, and the optimizer's state tensors (`optim.<state>.<name>`, `optim.step`),
  in place (ember.optim emits the update), so the updates persist across calls in process
  and in a loaded artifact;
* `forward(inputs…)` infers with the current parameters; `state_dict()` returns copies of
  the parameters and buffers under torch's names.

The step runs the model in training mode: every batch norm uses the batch's statistics
and updates its running statistics in place (torch's momentum, which must be the same for
all of the model's batch norms; `num_batches_tracked` is not kept), while `forward` infers
in eval mode with the running statistics. Dropout layers drop in the step (not in
`forward`) with masks from numpy's PCG64 seeded with (seed, step count, dropout site) —
`tensor.dropout_seeded` — so a run is reproducible and the backward reuses the forward's
mask; they must share one probability. Instance norms train on each sample's statistics
(as in both of torch's modes) unless they track running statistics. Dropout1d/2d/3d, alpha
dropout and instance norms with running statistics are refused rather than trained in eval
mode. A model with several inputs takes them in order, or as one tuple, before the target;
inputs the forward gives defaults may be left out (the compiled `step` entry, as a loaded
artifact shows it, takes them after the target); a model returning a tuple needs a loss
function that takes that tuple.
"""

from __future__ import annotations

from ember.api.core import ScriptFunction, _Compiled, no_gc
from ember.errors import UnsupportedError

_TRAINING_ONLY = ("Dropout1d", "Dropout2d", "Dropout3d", "AlphaDropout", "FeatureAlphaDropout",
                  "SyncBatchNorm")

_LOSSES = {
    # torch loss module -> (functional, attributes passed as keywords)
    "MSELoss": ("mse_loss", ("reduction",)),
    "L1Loss": ("l1_loss", ("reduction",)),
    "SmoothL1Loss": ("smooth_l1_loss", ("reduction", "beta")),
    "HuberLoss": ("huber_loss", ("reduction", "delta")),
    "CrossEntropyLoss": ("cross_entropy", ("ignore_index", "reduction", "label_smoothing")),
    "NLLLoss": ("nll_loss", ("ignore_index", "reduction")),
    "BCELoss": ("binary_cross_entropy", ("reduction",)),
    "BCEWithLogitsLoss": ("binary_cross_entropy_with_logits", ("reduction",)),
    "KLDivLoss": ("kl_div", ("reduction", "log_target")),
}


@no_gc
def train_step(model, loss_fn, optimizer, seed: int = 0) -> "TrainStep":
    """Compile one training step of `model` under `loss_fn` and `optimizer` (see above);
    `seed` seeds the dropout masks."""
    from ember.optim import Optimizer
    if not isinstance(optimizer, Optimizer):
        raise UnsupportedError("train_step needs an ember.optim optimizer (SGD, Adam, AdamW), "
                               f"not {type(optimizer).__name__}")
    _check_layers(model)
    module, params, names = _frozen(model, seed)
    loss_name = _add_loss(module, loss_fn)
    from ember.autodiff.train import build_step
    build_step(module, params, names, loss_name, optimizer)
    compiled = _Compiled(module, optimize=True)
    return TrainStep(compiled)


def _check_layers(model) -> None:
    mods = model.modules() if hasattr(model, "modules") else []
    for m in mods:
        name = type(m).__name__
        if any(name.startswith(p) for p in _TRAINING_ONLY):
            raise UnsupportedError(
                f"train_step: {name} behaves differently in training mode, which ember does "
                "not compile yet (batch statistics, dropout masks)")
        if name.startswith("InstanceNorm") and getattr(m, "track_running_stats", False):
            raise UnsupportedError(
                f"train_step: {name}(track_running_stats=True) updates running statistics in "
                "training mode, which ember does not compile yet")
        if _inner_dropout(m, name):
            raise UnsupportedError(
                f"train_step: {name}(dropout={m.dropout}) drops inside the layer in training "
                "mode, which ember does not compile yet (use dropout=0.0)")


def _inner_dropout(m, name: str) -> bool:
    """The layer drops internally in training mode: attention weights, or between the
    layers of a recurrent stack."""
    p = getattr(m, "dropout", 0.0)
    if not isinstance(p, (int, float)) or p <= 0:
        return False
    if name == "MultiheadAttention":
        return True
    return name in ("LSTM", "GRU", "RNN") and getattr(m, "num_layers", 1) > 1


def _bn_momentum(model) -> float | None:
    """The momentum all of the model's batch norms share (None without batch norms)."""
    found = set()
    for m in (model.modules() if hasattr(model, "modules") else []):
        if type(m).__name__.startswith("BatchNorm"):
            if m.momentum is None or not getattr(m, "track_running_stats", True):
                raise UnsupportedError(f"train_step: {type(m).__name__} without running "
                                       "statistics or with momentum=None is not supported yet")
            found.add(float(m.momentum))
    if len(found) > 1:
        raise UnsupportedError("train_step: batch norms with different momenta are not "
                               "supported yet")
    return found.pop() if found else None


def _dropout_p(model) -> float | None:
    """The probability all of the model's Dropout layers share (None without any)."""
    found = set()
    for m in (model.modules() if hasattr(model, "modules") else []):
        if type(m).__name__ == "Dropout":
            if getattr(m, "inplace", False):
                raise UnsupportedError("train_step: Dropout(inplace=True) is not supported yet")
            found.add(float(m.p))
    if len(found) > 1:
        raise UnsupportedError("train_step: dropout layers with different probabilities are "
                               "not supported yet")
    return found.pop() if found else None


def _frozen(model, seed: int = 0):
    """(frozen IR module, parameter symbols, their state_dict names)."""
    from ember.frontend.modules import compile_module
    from ember.passes.freeze import freeze_module
    module, entries = compile_module(model)
    if entries[0] != "forward":
        raise UnsupportedError("train_step needs a model with a forward method")
    from ember.autodiff.train import batch_norms_train, dropouts_train
    batch_norms_train(module, _bn_momentum(model))
    p = _dropout_p(model)
    if p is not None:
        dropouts_train(module, p, seed)
    freeze_module(module)
    module.entries = ["forward"]
    wanted = [n for n, _ in model.named_parameters()] if hasattr(model, "named_parameters") \
        else None
    params, names = [], []
    for sym, t in module.tensors.items():
        name = torch_name(sym)
        if t.data.dtype.kind != "f":
            continue
        if wanted is not None and name not in wanted:
            continue
        params.append(sym)
        names.append(name)
    if not params:
        raise UnsupportedError("train_step: the model's forward uses no float parameters")
    return module, params, names


def torch_name(sym: str) -> str:
    """torch's state_dict name of a tensor symbol: `self._0.weight` -> `0.weight` (ember
    names a numbered child `_N`)."""
    parts = sym.split(".")
    if parts and parts[0] == "self":
        parts = parts[1:]
    return ".".join(p[1:] if p[:1] == "_" and p[1:].isdigit() else p for p in parts)


def _add_loss(module, loss_fn) -> str:
    """Compile loss_fn into module as a function; its symbol."""
    from ember.frontend import compile_function, compile_source
    if isinstance(loss_fn, type):
        raise UnsupportedError("train_step takes a loss instance (nn.MSELoss()), not a class")
    cls = type(loss_fn).__name__
    if cls in _LOSSES and getattr(loss_fn, "__code__", None) is None:
        fn, attrs = _LOSSES[cls]
        if getattr(loss_fn, "weight", None) is not None or \
                getattr(loss_fn, "pos_weight", None) is not None:
            raise UnsupportedError(f"train_step: {cls} with class weights is not supported yet")
        kw = ", ".join(f"{a}={getattr(loss_fn, a)!r}" for a in attrs if hasattr(loss_fn, a))
        src = ("import torch.nn.functional as F\nfrom torch import Tensor\n"
               "def __loss(output: Tensor, target: Tensor) -> Tensor:\n"
               f"    return F.{fn}(output, target, {kw})\n")
        lm = compile_source(src, f"<{cls}>")
        entry = "__loss"
    elif getattr(loss_fn, "__code__", None) is not None:
        lm, entry = compile_function(loss_fn)
    else:
        raise UnsupportedError(f"train_step: the loss must be a scriptable function or one of "
                               f"torch.nn's {', '.join(sorted(_LOSSES))}, not {cls}")
    rename = {}
    for name in lm.funcs:
        new = "__loss." + name
        rename[name] = new
    from ember.ir.core import SymbolRef
    for f in lm.funcs.values():
        for op in f.walk():
            ref = op.attrs.get("callee")
            if isinstance(ref, SymbolRef) and ref.name in rename:
                op.attrs["callee"] = SymbolRef(rename[ref.name])
    for name, f in list(lm.funcs.items()):
        f.attrs["sym_name"] = rename[name]
        module.add_func(f)
    for k, v in lm.classes.items():
        module.classes.setdefault(k, v)
    module.sources.update(lm.sources)
    return rename[entry]


class TrainStep(ScriptFunction):
    """A compiled training step: call it with the inputs and the target; `forward`,
    `state_dict`."""

    def __init__(self, compiled):
        super().__init__(None, "step", compiled=compiled)
        self.forward = ScriptFunction(None, "forward", compiled=compiled)
        self._state = ScriptFunction(None, "state_dict", compiled=compiled)
        fwd = compiled.module.funcs["forward"]
        self._required = len(fwd.args) - len(fwd.defaults)

    def __call__(self, *args):
        """step(x, target), step((x1, x2), target) or step(x1, x2, target)."""
        if len(args) < 2:
            raise TypeError("a training step takes the model's inputs and the target "
                            f"({len(args)} argument{'s' if len(args) != 1 else ''} given)")
        *xs, target = args
        if len(xs) == 1 and isinstance(xs[0], tuple):
            xs = list(xs[0])
        n = self._required  # the step takes the target before inputs that have defaults
        return self._fn(*xs[:n], target, *xs[n:])

    def state_dict(self) -> dict:
        """The current parameters and buffers (copies) under torch's names."""
        return dict(self._state())

    def save(self, path, durable: bool = False) -> None:
        """Write an artifact with entries step (default), forward and state_dict."""
        super().save(path, durable)

    def __repr__(self) -> str:
        return "<ember.TrainStep>"


