"""Build of the one compiled extension, symphony._native, from pyx/_native.pyx.

Environment switches (read here and nowhere else):
  SYMPHONY_DEBUG=1     bounds and initialisation checks on, assertions kept, -O1 -g
  SYMPHONY_SANITIZE=1  with SYMPHONY_DEBUG: AddressSanitizer + UBSan (load with LD_PRELOAD=libasan)
  SYMPHONY_TRACE=1     line tracing for coverage
  SYMPHONY_ANNOTATE=1  writes the Cython annotation HTML next to the sources
"""
import os

from Cython.Build import cythonize
from setuptools import Extension, setup
from setuptools.command.build_ext import build_ext


def switch(name):
    return os.environ.get(name, "") not in ("", "0")


DEBUG = switch("SYMPHONY_DEBUG")
SANITIZE = switch("SYMPHONY_SANITIZE")
TRACE = switch("SYMPHONY_TRACE")
ANNOTATE = switch("SYMPHONY_ANNOTATE")
VARIANT = "-".join(n for n, on in (("debug", DEBUG), ("asan", SANITIZE), ("trace", TRACE)) if on) or "release"

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": False,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "embedsignature": True,
    "linetrace": TRACE,
}
compile_args = ["-O1", "-g", "-UNDEBUG"] if DEBUG else ["-O3", "-g0"]
link_args = []
macros = [("CYTHON_TRACE_NOGIL", "1")] if TRACE else []
if SANITIZE:
    compile_args += ["-fsanitize=address,undefined", "-fno-omit-frame-pointer", "-fno-sanitize-recover=undefined"]
    link_args += ["-fsanitize=address,undefined"]
if DEBUG:
    macros.append(("SYMPHONY_DEBUG", "1"))

extension = Extension(
    "symphony._native",
    ["pyx/_native.pyx"],
    include_dirs=["pyx"],
    extra_compile_args=compile_args + ["-Wno-unused-function"],
    extra_link_args=link_args,
    define_macros=macros,
)


class VariantBuild(build_ext):
    """Keeps each build variant's objects apart, so switching variants always recompiles."""

    def finalize_options(self):
        super().finalize_options()
        self.build_temp = os.path.join(self.build_temp, VARIANT)


setup(
    ext_modules=cythonize(
        [extension],
        include_path=["pyx"],
        compiler_directives=directives,
        annotate=ANNOTATE,
        build_dir=os.path.join("build", "cython", VARIANT),
    ),
    cmdclass={"build_ext": VariantBuild},
)
