"""Tick marks copied without copying their shapes.

Every tick an axis adds copies its first tick's lines (``Axis._copy_tick_props``), and copying a
line copies its marker with ``copy.deepcopy`` of everything the marker holds: its path (a shape
every marker of that kind shares anyway), its transforms, and, through the bound method that draws
it, the whole marker again. A chart makes a thousand ticks; the deep copies were a twentieth of its
drawing. While a chart is drawn (:func:`shallow`, around ``outputs.chart_svg``'s drawing), a marker
copied from another shares its paths and keeps copies of everything else, its method bound to
itself. The SVG is the same bytes (a test makes charts both ways); it stands in for one matplotlib
method, only on the matplotlib versions it was checked against (:data:`CHECKED`).
"""

from __future__ import annotations

import contextlib
import copy
from typing import Iterator

#: matplotlib versions whose markers this was checked against (same SVG bytes, see the tests).
CHECKED = ("3.11.2",)

_ACTIVE: list = []


@contextlib.contextmanager
def shallow() -> Iterator[None]:
    """For the ``with`` block: a marker made from another shares its paths (see the module)."""
    import matplotlib as mpl
    from matplotlib import markers

    if mpl.__version__ not in CHECKED or _ACTIVE:
        yield
        return
    original = markers.MarkerStyle._set_marker

    def _set_marker(self, marker):
        if type(marker) is not markers.MarkerStyle:
            return original(self, marker)
        self.__dict__ = _copied(marker.__dict__, marker, self)

    markers.MarkerStyle._set_marker = _set_marker
    _ACTIVE.append(True)
    try:
        yield
    finally:
        _ACTIVE.pop()
        markers.MarkerStyle._set_marker = original


def _copied(state: dict, source, target) -> dict:
    """``source``'s state for ``target``: paths and immutable values shared, methods of ``source``
    bound to ``target``, everything else deep-copied as matplotlib does."""
    from enum import Enum
    from types import MethodType

    from matplotlib.path import Path

    copied = {}
    for key, value in state.items():
        if value is None or isinstance(value, (str, bool, int, float, Enum, Path)):
            copied[key] = value
        elif isinstance(value, MethodType) and value.__self__ is source:
            copied[key] = value.__func__.__get__(target)
        else:
            copied[key] = copy.deepcopy(value)
    return copied
