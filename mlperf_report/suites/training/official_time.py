"""Which results' time to train is MLCommons' published one rather than the tree's own.

Where MLCommons' summary applies an RCP scaling factor for which the results tree holds no
``scaling.json``, ingest (``suites.training.official``) uses the official time and says so in the
result's ``status_detail`` with :data:`MARK`; the figures and the report's notes read it back here,
so a reader learns which times did not come from the runs alone.
"""

from __future__ import annotations

import math

#: The words of ``status_detail`` that mark an official time (written by ``official``, read here).
MARK = "the tree holds no scaling.json and its runs give"


def official_factor(status_detail: object, scaling_factor: object) -> float | None:
    """The RCP scaling factor of a result whose time is MLCommons' published one, else None."""
    if not isinstance(status_detail, str) or MARK not in status_detail:  # NA, NaN or None: no detail
        return None
    try:
        factor = float(scaling_factor)
    except (TypeError, ValueError):
        return None
    return factor if math.isfinite(factor) else None
