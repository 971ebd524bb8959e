"""ember.quantize: int8 models as an IR rewrite of the frozen module (docs/quantization.md)."""

from __future__ import annotations

from ember.errors import UnsupportedError

MODES = ("dynamic", "weight_only", "static", "qat")


def quantize(model, mode: str, calibration=None, observer: str = "histogram",
             per_channel: bool | None = None, backend: str = "vm", report: bool = False):
    """A scripted int8 module made from `model` (a torch.nn.Module, an ember.nn.Module or a
    ScriptModule), saved, loaded and run like any other.

    per_channel: one weight scale per output channel (True) or per tensor (False); by
    default torch.ao's choice for the mode (per tensor for "dynamic", as quantize_dynamic's
    default qconfig; per channel for "static" and "weight_only", as fbgemm's), so that a
    torch.ao user's model quantizes to the same codes without options.
    mode="dynamic": Linear, LSTM and GRU weights int8 (symmetric), activations quantized per
    call — torch.ao's quantize_dynamic, bit for bit (per_channel=True is its
    per_channel_dynamic_qconfig).
    mode="weight_only": linear, convolution and recurrent weights stored int8, dequantized
    once at load; compute stays float32.
    mode="static": conv2d and linear (with a following ReLU fused) run in int8 with
    activation qparams from `calibration` batches (observer "histogram", "minmax" or
    "moving_average", as torch.ao's); everything else stays float between them.
    report=True prints what runs in int8 and what stays float (with source lines) and the
    weights' size; the report is also `result.quantization_report`."""
    from ember.api.core import _check_backend
    from ember.api.modules import ScriptModule, _Compiled, _copy
    _check_backend(backend)
    _check_mode(mode, calibration)
    if per_channel is None:
        per_channel = mode != "dynamic"
    if isinstance(model, ScriptModule):
        if not model.frozen:
            from ember.api.modules import freeze
            model = freeze(model)
        module, entries = _copy(model.module), list(model.entries)
        from ember.passes.quantize import unfuse
        unfuse(module)  # the default pipeline grouped elementwise ops with their producers
    else:
        from ember.api.modules import _bind_quantized, is_scriptable_module
        if not is_scriptable_module(model):
            raise UnsupportedError(f"ember.quantize takes a torch.nn.Module, an ember.nn.Module "
                                   f"or a ScriptModule, not {type(model).__name__}")
        from ember.frontend.modules import compile_module
        from ember.passes.freeze import freeze_module
        module, entries = compile_module(model)  # frozen, not yet through the pipeline
        freeze_module(module)
        _bind_quantized(module, True)
    from ember.passes.freeze import prune_symbols
    from ember.passes.quantize import quantize_module
    from ember.passes.manager import PassManager
    if mode == "static":
        rep = _static(module, entries, calibration, observer, per_channel)
    else:
        rep = quantize_module(module, mode, per_channel)
    PassManager("dce", verify_each=False).run(module)  # the float weights' dead constants
    prune_symbols(module)
    result = ScriptModule(_Compiled(module, True, backend=backend), entries, frozen=True)
    result.__dict__["quantization_report"] = rep
    if report:
        print(rep)
    return result


def _check_mode(mode, calibration):
    if mode == "qat":
        raise UnsupportedError(
            "ember.quantize(mode='qat') needs gradients through the IR (the autodiff issue, "
            "'Autodiff over the IR'), which has not landed; use mode='static' with "
            "calibration batches, or 'dynamic'")
    if mode not in MODES:
        raise UnsupportedError(f"ember.quantize: unknown mode {mode!r}; expected one of "
                               f"{', '.join(MODES)}")
    if mode == "static":
        if calibration is None:
            raise UnsupportedError("ember.quantize(mode='static') needs calibration=: an "
                                   "iterable of batches, each the forward's argument or a "
                                   "tuple of its arguments")
        return
    if calibration is not None:
        raise UnsupportedError(f"ember.quantize(mode={mode!r}) takes no calibration batches "
                               "(only mode='static' calibrates)")


_SLOTS = [0]


def _static(module, entries, calibration, observer, per_channel):
    """Calibrate an instrumented copy over the batches, then rewrite module in place."""
    import sys

    from ember.api.modules import ScriptModule, _Compiled, _copy
    from ember.ops import tensor_quant
    from ember.passes import quantize_static as qs
    from ember.passes.quantize import Report
    from ember.quant.observers import OBSERVERS
    if observer not in OBSERVERS:
        raise UnsupportedError(f"ember.quantize: unknown observer {observer!r}; expected one "
                               f"of {', '.join(OBSERVERS)}")
    report = Report("static")
    cands, refused = qs.find(module)
    for op, why in refused:
        report.add(op, False, why)
    if not cands:
        return report
    work = _copy(module)
    work_cands, _ = qs.find(work)
    base = _SLOTS[0]
    _SLOTS[0] += len(qs.observed_values(work_cands))
    qs.instrument(work, work_cands, base)
    runner = ScriptModule(_Compiled(work, False), entries)
    make = OBSERVERS[observer]
    obs = [make(reduce_range=True) for _ in qs.observed_values(work_cands)]
    for i, o in enumerate(obs):
        tensor_quant.SINKS[base + i] = o.observe
    batches = list(calibration) if not hasattr(calibration, "__len__") else calibration
    try:
        for n, batch in enumerate(batches):
            args = batch if isinstance(batch, tuple) else (batch,)
            runner(*[_array(a) for a in args])
            if sys.stderr.isatty():
                print(f"\rcalibrating: {n + 1}/{len(batches)} batches", end="",
                      file=sys.stderr)
    finally:
        for i in range(len(obs)):
            tensor_quant.SINKS.pop(base + i, None)
    if sys.stderr.isatty():
        print(file=sys.stderr)
    if len(batches) == 0:
        raise UnsupportedError("ember.quantize(mode='static'): calibration has no batches")
    qs.rewrite(module, cands, [o.qparams() for o in obs], per_channel, report)
    return report


def _array(a):
    import numpy as np
    if hasattr(a, "detach"):  # a torch tensor
        return a.detach().cpu().numpy()
    return np.asarray(a) if not isinstance(a, (int, float, bool, str)) else a
