"""Test-wide settings: hypothesis profiles (CI runs derandomized, so a landing is reproducible;
`checked` is CI's pass on the bounds-checked sanitizer build, a lighter search over the same
properties; `HYPOTHESIS_PROFILE=fuzz` searches much longer) and the fixture directory."""
import os

from hypothesis import HealthCheck, settings

settings.register_profile("dev", deadline=None, max_examples=80, suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("ci", deadline=None, derandomize=True, print_blob=True, max_examples=80,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("checked", deadline=None, derandomize=True, print_blob=True, max_examples=25,
                          suppress_health_check=[HealthCheck.too_slow])
settings.register_profile("fuzz", deadline=None, max_examples=20000,
                          suppress_health_check=[HealthCheck.too_slow])
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci" if os.environ.get("CI") else "dev"))


def pytest_terminal_summary(terminalreporter):
    """Prints the fixture replay's per-slug verdict table when the fixtures were replayed."""
    from tests import test_fixtures

    table = test_fixtures.verdict_table()
    if table:
        terminalreporter.section("fixture verdicts")
        terminalreporter.write_line(table)
