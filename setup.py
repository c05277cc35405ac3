"""Build hook: compile the native engine (port/c/) while the package is installed.

The project's metadata is in pyproject.toml; this file only adds the step that builds
the C core into a shared library with the ziglang wheel's `zig cc` (a build requirement),
so no system C compiler is needed. If it cannot be built, the install goes on and hsx
runs on its Python engine (it says so once when it starts).
"""
import importlib.util
import sys
from pathlib import Path

from setuptools import Distribution, setup
from setuptools.command.build_py import build_py

ROOT = Path(__file__).resolve().parent


def _native_builder():
    spec = importlib.util.spec_from_file_location(
        "hsx_native_build", ROOT / "src" / "hsx" / "vm" / "native" / "build.py")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


class BuildPyWithNativeEngine(build_py):
    def run(self):
        super().run()
        builder = _native_builder()
        package = ("src" if getattr(self, "editable_mode", False) else self.build_lib)
        out = Path(package) / "hsx" / "vm" / "native"
        try:
            built = builder.build(ROOT / "port" / "c", out)
        except builder.BuildError as error:
            print(f"hsx: the native engine was not built ({error}); hsx will run on "
                  "its Python engine", file=sys.stderr)
        else:
            print(f"hsx: built the native engine: {built.name}", file=sys.stderr)


class PlatformDistribution(Distribution):
    """The wheel carries a compiled library: tag it for this platform."""

    def has_ext_modules(self):
        return True


setup(cmdclass={"build_py": BuildPyWithNativeEngine}, distclass=PlatformDistribution)
