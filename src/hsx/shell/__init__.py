"""hsx.shell: `hsx shell`, the operator console (docs/shell.md).

A front end: it talks to the executive only through `hsx.client` -- the command language
(`hsx.client.commands`), the renderers (`hsx.client.render`) and `AsyncClient` -- and
adds the prompt (repl.py), the engine shared by the prompt, scripts and one-shot
commands (core.py), completion data (cache.py), output (output.py) and starting an
executive (spawn.py).
"""
