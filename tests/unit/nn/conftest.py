import os
import sys


def pytest_terminal_summary(terminalreporter, exitstatus, config):
    """With EMBER_NN_REPORT=1, print the largest ember-vs-torch error seen per layer."""
    mod = sys.modules.get("tests.unit.nn.torch_ref")
    if mod is None or not mod.MAX_ERRORS or not os.environ.get("EMBER_NN_REPORT"):
        return
    terminalreporter.section("ember.nn vs torch: max error relative to max(1, |torch|)")
    for name, err in sorted(mod.MAX_ERRORS.items()):
        terminalreporter.write_line(f"{name:28s} {err:.3g}")
