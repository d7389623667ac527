"""Test-wide settings: the tier (tests/tiers.py: fast by default, `--exhaustive` for all), the
seed the fast tier samples with, the hypothesis profiles and the fixture verdict table.

Hypothesis profiles: `dev` is the fast tier's; `exhaustive` runs the full example counts, and
`ci` is the same derandomized (under CI the fast tier's sample and `dev` are fixed too, so that a
landing is reproducible; elsewhere hypothesis draws from SYMPHONY_SEED, as the sample does);
`checked` is CI's pass on the bounds-checked sanitizer build, a lighter search over the same
properties; `fuzz` searches much longer. No profile has a deadline, on purpose: on a shared
two-core machine a test's time is noise, and speed is measured in bench/, never asserted in a
test. HYPOTHESIS_PROFILE overrides the tier's.
"""
import os
import random

import pytest
from hypothesis import HealthCheck, settings

from tests import tiers

_QUIET = [HealthCheck.too_slow]
_CI = bool(os.environ.get("CI"))
settings.register_profile("dev", deadline=None, max_examples=20, print_blob=True, derandomize=_CI,
                          suppress_health_check=_QUIET)
settings.register_profile("exhaustive", deadline=None, max_examples=80, suppress_health_check=_QUIET)
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True, max_examples=80,
                          suppress_health_check=_QUIET)
settings.register_profile("checked", deadline=None, derandomize=True, print_blob=True, max_examples=25,
                          suppress_health_check=_QUIET)
settings.register_profile("fuzz", deadline=None, max_examples=20000, suppress_health_check=_QUIET)


def pytest_addoption(parser):
    parser.addoption("--exhaustive", action="store_true",
                     help="run the exhaustive tier: every plan, case and example, and the tests marked exhaustive "
                          "(also SYMPHONY_TIER=exhaustive)")


@pytest.hookimpl(tryfirst=True)
def pytest_configure(config):
    config.addinivalue_line("markers", "exhaustive: runs only in the exhaustive tier (pytest --exhaustive)")
    exhaustive = config.getoption("--exhaustive") or os.environ.get("SYMPHONY_TIER") == "exhaustive"
    # chosen once, here, so that pytest-xdist's workers (started later, with this environment)
    # draw the same sample and so collect the same tests
    os.environ.setdefault("SYMPHONY_SEED", "1" if _CI else str(random.randrange(1, 10**6)))
    os.environ["SYMPHONY_TIER"] = "exhaustive" if exhaustive else "fast"
    tiers.configure(exhaustive, int(os.environ["SYMPHONY_SEED"]))
    default = ("ci" if _CI else "exhaustive") if exhaustive else "dev"
    settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", default))
    if config.getoption("hypothesis_seed", None) is None:
        # hypothesis draws from the run's seed too (a derandomized profile, CI's, draws from each
        # test's name instead): the seed a failure prints draws its examples again, not only the
        # sample (hypothesis's plugin reads the option after this hook)
        config.option.hypothesis_seed = os.environ["SYMPHONY_SEED"]


def pytest_report_header(config):
    return (f"symphony tests: {tiers.name()} tier, SYMPHONY_SEED={tiers.SEED}, "
            f"hypothesis profile {settings.get_current_profile_name()}")


def pytest_collection_modifyitems(config, items):
    if tiers.EXHAUSTIVE:
        return
    skip = pytest.mark.skip(reason="exhaustive tier only (pytest --exhaustive)")
    for item in items:
        if "exhaustive" in item.keywords:
            item.add_marker(skip)


@pytest.hookimpl(wrapper=True)
def pytest_runtest_makereport(item, call):
    report = yield
    if report.failed and not tiers.EXHAUSTIVE:
        report.sections.append(("sample", f"fast tier: SYMPHONY_SEED={tiers.SEED} draws this sample again"))
    return report


def pytest_terminal_summary(terminalreporter):
    """Prints the fixture replay's per-slug verdict table when the fixtures were replayed."""
    from tests import test_fixtures

    table = test_fixtures.verdict_table()
    if table:
        terminalreporter.section("fixture verdicts")
        terminalreporter.write_line(table)
