"""The layout of an Inference results tree:

``<division>/<submitter>/results/<system>/<model>/<scenario>/performance/run_1/mlperf_log_summary.txt``,
``.../accuracy/accuracy.txt``, ``.../performance/power/`` (where power was measured, with the run's
``mlperf_log_detail.txt`` and ``spl.txt`` beside the summary in full copies),
``<division>/<submitter>/compliance/<system>/<model>/<scenario>/TEST*/verify_*.txt`` and
``<division>/<submitter>/systems/<system>.json`` (and an open submitter's ``model_mapping.json``);
from v6.0 the ``TEST*/`` folders (and ``measurements.json``, ``user.conf``) sit inside the result folder itself; from v6.1 a result run with
MLCommons' endpoints harness has ``performance/result_summary.json``, ``accuracy/accuracy_results.json``
and ``config.yaml`` in place of LoadGen's files; one top folder (``inference_results_vX.Y/``) or none.
"""

from __future__ import annotations

from dataclasses import dataclass, field

from mlperf_report.core.sources import Entry

DIVISIONS = ("closed", "open", "network")
_SCENARIOS = {"offline": "Offline", "server": "Server", "interactive": "Interactive",
              "singlestream": "SingleStream", "multistream": "MultiStream"}


def scenario_name(folder: str) -> str:
    """The checker's spelling of a scenario folder (``offline`` -> ``Offline``)."""
    return _SCENARIOS.get(folder.lower(), folder)


@dataclass
class ResultFolder:
    division: str
    submitter: str
    system: str
    model: str
    scenario_folder: str
    summary: str | None = None       # performance/run_1/mlperf_log_summary.txt
    accuracy: str | None = None      # accuracy/accuracy.txt
    power: bool = False              # performance/power/ holds files
    detail: str | None = None        # performance/run_1/mlperf_log_detail.txt (power window, query count)
    spl: str | None = None           # performance/run_1/spl.txt (the analyzer's samples)
    compliance: dict[str, list[str]] = field(default_factory=dict)  # TEST* -> verify_*.txt files
    endpoints: str | None = None     # performance/result_summary.json (endpoints harness, v6.1+)
    endpoints_accuracy: str | None = None  # accuracy/accuracy_results.json
    config: str | None = None        # config.yaml of an endpoints-harness run (its minimum duration)

    @property
    def performance_file(self) -> str | None:
        """The file the result is read from: LoadGen's summary, else the endpoints harness's."""
        return self.summary or self.endpoints

    @property
    def key(self) -> tuple[str, str, str, str, str]:
        return (self.division, self.submitter, self.system, self.model, self.scenario_folder)

    @property
    def scenario(self) -> str:
        return scenario_name(self.scenario_folder)


@dataclass
class Tree:
    top: str
    results: dict[tuple, ResultFolder] = field(default_factory=dict)
    systems: dict[tuple[str, str, str], Entry] = field(default_factory=dict)  # (division, submitter, stem)
    compliance: dict[tuple, dict[str, list[str]]] = field(default_factory=dict)  # result key -> TEST* -> files
    ignored: list[tuple[str, str]] = field(default_factory=list)
    model_mappings: dict[tuple[str, str], Entry] = field(default_factory=dict)  # (division, submitter)


def _top(entries: list[Entry]) -> str:
    firsts = {e.name.split("/", 1)[0] for e in entries}
    if len(firsts) == 1 and next(iter(firsts)) not in DIVISIONS:
        return next(iter(firsts))
    return ""


def _result(tree: Tree, parts: list[str]) -> ResultFolder:
    key = (parts[0], parts[1], parts[3], parts[4], parts[5])
    if key not in tree.results:
        tree.results[key] = ResultFolder(*key)
    return tree.results[key]


#: The files of a result folder the ingest reads -> the ResultFolder field that names them.
_FOLDER_FILES = {"performance/run_1/mlperf_log_summary.txt": "summary", "accuracy/accuracy.txt": "accuracy",
                 "performance/run_1/mlperf_log_detail.txt": "detail", "performance/run_1/spl.txt": "spl",
                 "performance/result_summary.json": "endpoints", "accuracy/accuracy_results.json": "endpoints_accuracy",
                 "config.yaml": "config"}

#: Files of a v6.0+ result folder that a report does not read but that belong there.
_RESULT_FOLDER_FILES = ("measurements.json", "user.conf", "mlperf.conf", "README.md", "config.yaml", "report.txt")


def _result_extra(folder: ResultFolder, entry: Entry, tail: list[str]) -> str | None:
    """The v6.0 layout keeps the audit tests (``TEST*/``) and measurements inside the result folder."""
    if tail[0] in ("performance", "accuracy") or (len(tail) == 1 and tail[0] in _RESULT_FOLDER_FILES):
        return None
    if tail[0].upper().startswith("TEST"):
        if len(tail) == 2 and tail[1].startswith("verify_") and tail[1].endswith(".txt"):
            folder.compliance.setdefault(tail[0], []).append(entry.name)
        return None
    return "not a file a report reads"


def _place(tree: Tree, entry: Entry, parts: list[str]) -> str | None:
    """File one entry; return why it is ignored, or None."""
    if len(parts) < 3 or parts[0] not in DIVISIONS:
        return "outside <division>/<submitter>/"
    area, rest = parts[2], parts[3:]
    if len(parts) == 3 and area == "model_mapping.json":  # an open submitter's model names -> benchmarks
        tree.model_mappings[(parts[0], parts[1])] = entry
        return None
    if area == "systems" and len(rest) == 1 and rest[0].endswith(".json") and not rest[0].startswith("."):
        tree.systems[(parts[0], parts[1], rest[0][:-5])] = entry
        return None
    if area == "results" and len(rest) >= 5:
        folder = _result(tree, parts)
        tail = "/".join(rest[3:])
        if tail in _FOLDER_FILES:
            setattr(folder, _FOLDER_FILES[tail], entry.name)
        elif tail.startswith("performance/power/"):
            folder.power = True
        return _result_extra(folder, entry, rest[3:])
    if area == "compliance" and len(rest) >= 5 and rest[3].upper().startswith("TEST"):
        if len(rest) == 5 and rest[4].startswith("verify_") and rest[4].endswith(".txt"):
            key = (parts[0], parts[1], rest[0], rest[1], rest[2])
            tree.compliance.setdefault(key, {}).setdefault(rest[3], []).append(entry.name)
        return None
    if area in ("measurements", "compliance", "results"):
        return None
    return "not part of the results layout"


def classify(entries: list[Entry]) -> Tree:
    """Sort a listing into result folders, compliance verdicts and systems JSON files."""
    top = _top(entries)
    tree = Tree(top)
    prefix = top + "/" if top else ""
    for entry in entries:
        name = entry.name[len(prefix):] if prefix and entry.name.startswith(prefix) else entry.name
        reason = _place(tree, entry, name.split("/"))
        if reason:
            tree.ignored.append((entry.name, reason))
    for key, tests in tree.compliance.items():
        if key in tree.results:
            for test, files in tests.items():
                tree.results[key].compliance.setdefault(test, []).extend(files)
    for folder in tree.results.values():
        folder.compliance = {t: sorted(set(v)) for t, v in sorted(folder.compliance.items())}
    return tree
