"""Names of a package loaded on first use (PEP 562), so that importing a light part of it stays light."""

from __future__ import annotations

import importlib
import sys
from collections.abc import Callable, Mapping
from typing import Any


def lazy_names(package: str, homes: Mapping[str, str]) -> Callable[[str], Any]:
    """A module ``__getattr__`` for ``package``: each name in ``homes`` (name → relative module) is imported
    from its module when first asked for, and kept on the package."""

    def attribute(name: str) -> Any:
        home = homes.get(name)
        if home is None:
            raise AttributeError(f"module {package!r} has no attribute {name!r}")
        value = getattr(importlib.import_module(home, package), name)
        setattr(sys.modules[package], name, value)
        return value

    return attribute
