"""Imported once by the fork server that assembling processes are forked from (``report_pools``): the
warm-up, so that every process forked afterwards starts with WeasyPrint and nbconvert imported and a
report rehearsed, and the build pays for them once.

Nothing here may raise: the fork server survives only an ImportError in what it imports, and every
report process would fail to start with no reason given. ``report_pools.warm_up`` skips a step that
fails; the report that needs what failed raises the error itself.
"""

from __future__ import annotations

import gc
import os

from mlperf_report.assemble import report_pools

#: The fork server's process id: its forked processes exit with it (``report_pools._ready_worker``).
PID = os.getpid()

report_pools.warm_up(report_pools.WARM_UP)
gc.freeze()  # what the warm-up made lives on in every process: out of their collections' way
gc.set_threshold(10000, 20, 20)  # WeasyPrint's layout makes objects by the hundred thousand
