"""`--config FILE` and `--fs SPEC`, shared by `hsx run` and `hsx execd`
(hsx.kernel.backends; docs/backends.md)."""
from __future__ import annotations

import functools
from pathlib import Path

import click

from .errors import fail

FS_HELP = ("The guests' file system: host:DIR, fat:IMAGE (an SD card image) or can:CHANNEL "
           "(files served over CAN); replaces the config file's [fs].")


def backend_options(command):
    @click.option("--config", "config_file", type=click.Path(dir_okay=False), metavar="FILE",
                  help="A TOML file (hsx.toml): backends in [fs], [persist], [can] "
                       "(docs/backends.md), the stack and memory tasks get in [task] "
                       "(docs/machine.md).")
    @click.option("--fs", "fs_spec", metavar="SPEC", help=FS_HELP)
    @functools.wraps(command)
    def wrapper(*args, **kwargs):
        return command(*args, **kwargs)
    return wrapper


def choose_backends(config_file: str | None, fs_spec: str | None, root: str | None,
                    default_root: Path | None = None):
    """The configuration the options ask for: the file, then the shorthands over it
    (`--fs`, or `--root`, the older `--fs host:DIR`).  `default_root` serves when
    nothing names a file system."""
    from hsx.kernel.backends import BackendConfig, BackendError, fs_shorthand, load_config
    if fs_spec is not None and root is not None:
        fail("--root", "give --root DIR or --fs SPEC, not both", "--root DIR is --fs host:DIR")
    try:
        config = load_config(config_file) if config_file else BackendConfig()
        if fs_spec is not None:
            config.tables["fs"] = fs_shorthand(fs_spec, config)
        elif root is not None:
            config.tables["fs"] = {"backend": "host", "root": root}
        elif "fs" not in config.tables and default_root is not None:
            config.tables["fs"] = {"backend": "host", "root": str(default_root)}
    except BackendError as error:
        fail(error.what, error.why, error.hint)
    return config


def chosen_link(config, link_spec: str | None) -> dict | None:
    """The framed link to serve: `--link URL`, else the file's [link], else none."""
    from hsx.kernel.backends import BackendError, link_shorthand
    if link_spec is None:
        return config.get("link")
    try:
        return link_shorthand(link_spec)
    except BackendError as error:
        fail(error.what, error.why, error.hint)


def build_backends(config, max_open_per_task: int):
    """Start the backends (an image opened, a bus joined), or fail saying why."""
    from hsx.kernel.backends import BackendError, build
    try:
        return build(config, max_open_per_task=max_open_per_task)
    except BackendError as error:
        fail(error.what, error.why, error.hint)


def list_backends_option(command):
    """`--list-backends`: print what the configuration can name, one line each, and exit."""
    def show(ctx: click.Context, _param, value: bool) -> None:
        if not value or ctx.resilient_parsing:
            return
        from hsx.kernel.backends import list_backends
        click.echo("\n".join(list_backends()))
        ctx.exit(0)
    return click.option("--list-backends", is_flag=True, expose_value=False, is_eager=True,
                        callback=show, help="Name the backends a --config file can choose, "
                                            "one line each, and exit.")(command)
