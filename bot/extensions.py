"""The extensions the bot loads, found by walking `cogs/` the way python-discord's bot
finds its own: every module or package there with a `setup` function is one.

Walking imports them, so every game plug-in has registered its engine and presenter before
any extension's `setup` runs (the `/rules` choices are built from all of them).
"""

from __future__ import annotations

import importlib
import inspect
import pkgutil
from collections.abc import Iterable


def walk_extensions(package: str = "cogs", extra: Iterable[str] = ()) -> list[str]:
    """The extensions under `package`, sorted, then `extra` as given."""
    found = []
    root = importlib.import_module(package)
    for module in pkgutil.iter_modules(root.__path__, f"{package}."):
        if module.name.rsplit(".", 1)[-1].startswith("_"):
            continue  # a private module of the package itself
        if _is_extension(importlib.import_module(module.name)):
            found.append(module.name)
    for name in extra:
        if not _is_extension(importlib.import_module(name)):
            raise ValueError(f"{name} has no async setup(bot) function")
        found.append(name)
    return found


def _is_extension(module: object) -> bool:
    setup = getattr(module, "setup", None)
    return setup is not None and inspect.iscoroutinefunction(setup)
