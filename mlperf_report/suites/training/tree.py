"""Recognise the files of an official results tree among a source's entries.

The layout is ``[top/]<org>/results/<system>/<benchmark>/result_*.txt`` and
``[top/]<org>/systems/<system>.json`` (plus an optional ``scaling.json`` beside the results). The
same classification serves folders, zips and tars; whatever does not fit is listed as ignored, with
the reason, instead of being guessed at.
"""

from __future__ import annotations

import re
from collections import Counter
from dataclasses import dataclass, field

from mlperf_report.core.sources import Entry

_RESULT_FILE = re.compile(r"^result_(.+)\.txt$")


@dataclass(frozen=True)
class ResultFile:
    org: str
    system: str
    benchmark_folder: str
    run: str
    entry: Entry


@dataclass
class Tree:
    results: list[ResultFile] = field(default_factory=list)
    systems: dict[tuple[str, str], Entry] = field(default_factory=dict)  # (org, json stem) -> entry
    scaling: dict[tuple[str, str, str], Entry] = field(default_factory=dict)  # (org, system, bench)
    ignored: list[tuple[str, str]] = field(default_factory=list)
    #: every <org>/results/<system>/<benchmark>/ folder, including empty ones -> its path
    result_sets: dict[tuple[str, str, str], str] = field(default_factory=dict)
    #: files in a benchmark folder that are not named result_*.txt, per result set
    misnamed: dict[tuple[str, str, str], int] = field(default_factory=dict)
    #: the folders before <org> (``training_results_v1.0`` in a repository archive), "" for none
    top: str = ""
    #: result files known to exist upstream but missing from this copy (``--absent``), per result set
    absent: dict[tuple[str, str, str], list[str]] = field(default_factory=dict)


def _top_depth(names: list[list[str]]) -> int:
    """How many leading folders come before ``<org>``: the depth where most paths have
    ``results``/``systems`` as their second part (0 for a tree folder, 1 for a repository archive)."""
    votes: Counter[int] = Counter()
    for parts in names:
        for depth in range(0, min(len(parts) - 2, 3)):
            if parts[depth + 1] in ("results", "systems"):
                votes[depth] += 1
                break
    return votes.most_common(1)[0][0] if votes else 0


def classify(entries: list[Entry], folders: list[str] = (), absent: list[str] = ()) -> Tree:
    """Sort a source's entries into result files, systems JSONs, scaling files and ignored files.

    ``folders`` lets empty benchmark folders count as result sets with no runs; ``absent`` names result
    files known to be missing from this copy of the tree, as paths from the tree root (``<org>/...``).
    """
    tree = Tree()
    split = [entry.name.split("/") for entry in entries]
    depth = _top_depth(split)
    tree.top = "/".join(split[0][:depth]) if split else ""
    for folder in folders:
        rel = folder.split("/")[depth:]
        if len(rel) == 4 and rel[1] == "results":
            tree.result_sets[(rel[0], rel[2], rel[3])] = folder
    for name in absent:  # org-first paths: <org>/results/<system>/<benchmark>/result_N.txt
        rel = name.strip().split("/")
        if len(rel) == 5 and rel[1] == "results" and _RESULT_FILE.match(rel[4]):
            tree.absent.setdefault((rel[0], rel[2], rel[3]), []).append(name.strip())
    for entry, parts in zip(entries, split):
        rel = parts[depth:]
        name = entry.name
        base = parts[-1]
        if len(rel) < 3 or rel[1] not in ("results", "systems"):
            tree.ignored.append((name, "not under <org>/results/ or <org>/systems/"))
            continue
        org, area = rel[0], rel[1]
        if area == "systems":
            if len(rel) == 3 and base.endswith(".json") and not base.startswith("."):
                tree.systems[(org, base[: -len(".json")])] = entry
            else:
                tree.ignored.append((name, "not a systems JSON (<org>/systems/<system>.json)"))
            continue
        match = _RESULT_FILE.match(base)
        if len(rel) == 5 and match:
            tree.results.append(ResultFile(org, rel[2], rel[3], match.group(1), entry))
            tree.result_sets.setdefault((org, rel[2], rel[3]), "/".join(parts[:-1]))
        elif len(rel) == 5 and base == "scaling.json":
            tree.scaling[(org, rel[2], rel[3])] = entry
        else:
            tree.ignored.append((name, "not a result file (<org>/results/<system>/<benchmark>/result_*.txt)"))
            if len(rel) == 5:
                tree.misnamed[(org, rel[2], rel[3])] = tree.misnamed.get((org, rel[2], rel[3]), 0) + 1
    present = {(r.org, r.system, r.benchmark_folder, f"result_{r.run}.txt") for r in tree.results}
    for key, names in list(tree.absent.items()):
        names = [n for n in names if (*key, n.rsplit("/", 1)[-1]) not in present]
        if names:
            tree.absent[key] = sorted(names)
            tree.result_sets.setdefault(key, "/".join(key[:1] + ("results",) + key[1:]))
        else:
            del tree.absent[key]
    tree.results.sort(key=lambda r: r.entry.name)
    tree.ignored.sort()
    return tree
