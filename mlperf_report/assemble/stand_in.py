"""Standing in for a function of WeasyPrint's for the length of one print, on checked versions only.

``chart_letters`` and ``text_lines`` remember WeasyPrint's line breaking while a page prints, and
``svg_runs`` draws a chart label as one run. Each replaces a module attribute for a ``with`` block
and puts it back after, and does so only on the WeasyPrint versions its own tests checked; on any
other the block runs WeasyPrint's own code.
"""

from __future__ import annotations

import contextlib
from typing import Callable, Iterator


@contextlib.contextmanager
def standing_in(name: str, versions: tuple[str, ...], replacements: Callable[[dict], dict]) -> Iterator[dict]:
    """For the ``with`` block, on the WeasyPrint ``versions`` only: each module's attribute ``name``
    replaced by its function in ``replacements(memo)`` (module -> function, given the block's memo);
    the originals put back however the block ends. Yields the memo (empty where nothing stood in)."""
    import weasyprint

    memo: dict = {}
    if weasyprint.__version__ not in versions:
        yield memo
        return
    chosen = replacements(memo)
    before = {module: getattr(module, name) for module in chosen}
    for module, function in chosen.items():
        setattr(module, name, function)
    try:
        yield memo
    finally:
        for module, function in before.items():
            setattr(module, name, function)
