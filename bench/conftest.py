"""bench/'s own tests run with the suite (the harness's symphony side, the results writer); the
timed cases (the `benchmark` fixture) run only under `pytest bench --benchmark-only`."""
import pytest


def pytest_collection_modifyitems(config, items):
    if config.getoption("benchmark_only", False):
        return
    timed = pytest.mark.skip(reason="timed: python3 -m pytest bench --benchmark-only")
    for item in items:
        if "benchmark" in getattr(item, "fixturenames", ()):
            item.add_marker(timed)
