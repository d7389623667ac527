"""The product under test is the compiled core: no silent fallback, and the build variant known."""
import importlib.machinery
import os

import symphony
from symphony import _native


def test_native_module_is_compiled():
    assert _native.__file__.endswith(tuple(importlib.machinery.EXTENSION_SUFFIXES)), _native.__file__
    assert symphony.Engine is _native.Engine


def test_the_module_is_the_build_variant_expected():
    """CI says which variant each run must import (SYMPHONY_EXPECT_VARIANT): a stale module of
    another variant fails here instead of testing the wrong build."""
    assert _native.INJECTABLE == _native.VARIANT.startswith("debug")
    expected = os.environ.get("SYMPHONY_EXPECT_VARIANT")
    if expected:
        assert _native.VARIANT == expected


def test_the_module_carries_the_variant_tag_setup_py_reads():
    # setup.py rebuilds a module whose embedded tag names another variant
    with open(_native.__file__, "rb") as f:
        assert f"symphony-variant={_native.VARIANT}\0".encode() in f.read()


def test_package_reexports_the_public_api():
    for name in ("parser", "parse", "formats", "Prompt", "Delta", "End", "TokenSpan", "ParseError",
                 "LifecycleError", "BufferOverflowError", "InternalError", "Content", "Finish"):
        assert hasattr(symphony, name), name


def test_ci_runs_the_readme_test_command():
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    with open(os.path.join(root, "README.md"), encoding="utf-8") as f:
        readme = f.read()
    block = readme.split("```")[3].strip().splitlines()
    commands = [line.strip() for line in block[1:] if line.strip()]
    with open(os.path.join(root, ".ci", "run"), encoding="utf-8") as f:
        ci = f.read()
    for command in commands:
        assert command in ci, f".ci/run does not run the README's test command {command!r}"
