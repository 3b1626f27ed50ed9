"""The drift alarm: one checker rule failing most runs of a benchmark, across several submitters.

Results trees hold results that passed MLCommons' review, so such a pattern more likely means a
rule changed after the round (a new mlperf-logging checks the old round more strictly) than a round
of bad submissions. Ingest reports it, naming the amendments file where such a change is recorded
(``amendments``), instead of quietly counting published results as not converged.
"""

from __future__ import annotations

import re

import pandas as pd

#: The alarm sounds when a rule fails in more than this share of a benchmark's checked runs ...
SHARE = 0.5
#: ... of at least this many submitters.
SUBMITTERS = 2


def rule_of(failed_check: str) -> str:
    """A failed check without what differs from file to file (the line number it was found on)."""
    return re.sub(r" in line \d+", "", str(failed_check or "")).strip()


def find(runs: pd.DataFrame) -> list[dict]:
    """Per benchmark, the rules that fail too widely: {benchmark, rule, runs, of_runs, submitters}."""
    if "compliant" not in runs.columns:
        return []
    checked = runs[runs["compliant"].notna()]
    alarms = []
    for benchmark, group in checked.groupby("benchmark", sort=True):
        failing = group[group["compliant"].eq(False)]
        for rule, hits in failing.groupby(failing["failed_check"].map(rule_of), sort=True):
            submitters = sorted(set(hits["submitter"]))
            if len(hits) > SHARE * len(group) and len(submitters) >= SUBMITTERS:
                alarms.append({"benchmark": str(benchmark), "rule": rule, "runs": int(len(hits)),
                               "of_runs": int(len(group)), "submitters": submitters})
    return alarms
