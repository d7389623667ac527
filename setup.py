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
# compiled into the module (symphony._native.VARIANT), so a build can tell which variant a built
# module is without importing it
VARIANT_TAG = b"symphony-variant="

directives = {
    "language_level": 3,
    "boundscheck": DEBUG,
    "wraparound": False,
    "initializedcheck": DEBUG,
    "cdivision": True,
    "embedsignature": True,
    "linetrace": TRACE,
}
# The core is one C file of about 190,000 lines (its own code and Cython's), and its hot paths are
# chains of small cdef methods. GCC's default caps on how far inlining may grow a unit that size
# (and how long a function it inlines unasked may be) leave most of those calls in place; these
# let it take them: 10-12% fewer instructions per streamed token and per whole output, for a
# text section about 45% larger.
INLINING = ["--param", "max-inline-insns-auto=200", "--param", "inline-unit-growth=150"]
compile_args = ["-O1", "-g", "-UNDEBUG"] if DEBUG else ["-O3", "-g0"] + INLINING
link_args = []
macros = [("SYMPHONY_VARIANT_TAG", '"%s%s"' % (VARIANT_TAG.decode(), VARIANT))]
if TRACE:
    macros.append(("CYTHON_TRACE_NOGIL", "1"))
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


def built_variant(path):
    """The variant the module at `path` was built as (read from its embedded tag), or None."""
    try:
        with open(path, "rb") as f:
            data = f.read()
    except OSError:
        return None
    at = data.find(VARIANT_TAG)
    if at < 0:
        return None
    return data[at + len(VARIANT_TAG):data.find(b"\0", at)].decode("ascii", "replace")


class VariantBuild(build_ext):
    """Keeps each build variant's objects apart, and rebuilds a module built as another variant
    (without this, a module newer than its sources is kept: a plain build after a sanitizer build
    left the sanitizer module in place)."""

    def finalize_options(self):
        super().finalize_options()
        self.build_temp = os.path.join(self.build_temp, VARIANT)

    def build_extension(self, ext):
        if built_variant(self.get_ext_fullpath(ext.name)) != VARIANT:
            self.force = True
        super().build_extension(ext)


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
