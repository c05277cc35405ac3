"""The host-directory sandbox: what only a host directory can do (symlinks, UNC-style
paths, a sandbox of the kernel's own).  What every backend does is in
tests/kernel/backends/test_fs_conformance.py."""
import errno

import pytest

from hsx.kernel.filesystems import SandboxFS


@pytest.fixture
def fs(tmp_path):
    return SandboxFS(tmp_path / "root", max_open_per_task=3)


def test_unc_style_paths_stay_inside_the_sandbox(fs):
    assert fs.resolve(r"\\network\share") == fs.root / "network" / "share"


def test_symlink_out_of_the_sandbox_is_refused(fs, tmp_path):
    outside = tmp_path / "secret"
    outside.write_text("x")
    (fs.root / "link").symlink_to(outside)
    assert fs.open(1, "link") == -errno.EINVAL


def test_a_kernel_without_a_root_has_a_sandbox_of_its_own_removed_with_it():
    import gc

    from hsx.kernel.executive import Kernel

    first, second = Kernel(), Kernel()
    root = first.fs.root
    assert root.is_dir() and root != second.fs.root
    (root / "left.txt").write_text("by a task")
    del first
    gc.collect()
    assert not root.exists() and second.fs.root.is_dir()
