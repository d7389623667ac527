# Fault injection for the tests (debug build only): one allocation of the core made to fail.

INJECTABLE = bool(SYM_CAN_INJECT)


def _fail_allocation_after(Py_ssize_t n):
    """The allocation after the next `n` of the core fails (returns NULL, as when memory runs
    out); -1 lets every one succeed again. Debug build only (SYMPHONY_DEBUG=1)."""
    global sym_alloc_countdown
    if not SYM_CAN_INJECT:
        raise RuntimeError("allocation failures are injected only in the debug build (SYMPHONY_DEBUG=1)")
    sym_alloc_countdown = n


def _allocations_before_failure():
    """How many allocations are left before the injected failure (-1: none is armed, or it struck)."""
    return sym_alloc_countdown
