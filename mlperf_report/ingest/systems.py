"""Systems JSON files to flat rows: the facts a report cites about each system.

Submitters write numbers as strings (``"8"``, ``""``, ``"2 x 64"``), so counts are parsed leniently
and left empty when they are not a plain number, never guessed.
"""

from __future__ import annotations

import json
import re

from mlperf_report.core import limits

#: systems JSON ``status`` → availability category of the results tables.
_AVAILABILITY = {
    "available": "available",
    "onprem": "available",
    "on-premise": "available",
    "cloud": "available",
    "preview": "preview",
    "research": "research",
    "rdi": "research",
}

#: Misspellings of a division seen in official trees (PCL's v1.0 systems say "close").
_DIVISION_ALIASES = {"close": "closed"}

#: Raw fields kept in systems.csv besides the derived ones (all other fields are kept too).
DERIVED_COLUMNS = ("submitter", "system_id", "division", "availability", "system_name",
                   "accelerator_model", "accelerators", "host_processor_model", "host_processors",
                   "nodes", "framework")


class SystemJsonError(ValueError):
    """A systems JSON that cannot be used; the message says what is wrong."""


def parse_count(value) -> int | None:
    """``"8"`` → 8; ``""``, ``"n/a"``, ``"2 x 64"`` → None (not a plain count)."""
    if isinstance(value, bool):
        return None
    if isinstance(value, int):
        return value
    if isinstance(value, float) and value.is_integer():
        return int(value)
    if isinstance(value, str) and re.fullmatch(r"\s*\d+\s*", value):
        return int(value)
    return None


def availability(status: str | None) -> str:
    """The availability category for a systems JSON ``status`` (empty when not recognised); later
    rounds spell it out (``Available on-premise``, ``Available cloud``, ``Research, Development, or Internal``)."""
    text = str(status or "").strip().lower()
    if text in _AVAILABILITY:
        return _AVAILABILITY[text]
    first = re.split(r"[\s,;:/()-]+", text, maxsplit=1)[0]
    return _AVAILABILITY.get(first, "")


def parse_system(data: bytes, system_id: str) -> tuple[dict, list[str]]:
    """Parse one systems JSON; return its row and the problems found in it."""
    if len(data) > limits.MAX_JSON_BYTES:
        raise SystemJsonError(f"larger than {limits.mib(limits.MAX_JSON_BYTES)} (limit MAX_JSON_BYTES)")
    try:
        desc = limits.loads(data, "the document")
    except limits.LimitError as error:
        raise SystemJsonError(str(error)) from error
    except UnicodeDecodeError:
        desc = None
        try:
            desc = limits.loads(data.decode("utf-8", errors="replace"), "the document")
        except ValueError as error:
            raise SystemJsonError(f"not valid JSON ({error})") from error
    except ValueError as error:
        raise SystemJsonError(f"not valid JSON ({error})") from error
    if not isinstance(desc, dict):
        raise SystemJsonError("not a JSON object")
    problems = []
    for required in ("submitter", "division", "system_name"):
        if not str(desc.get(required, "")).strip():
            problems.append(f"field '{required}' is missing or empty")
    nodes = parse_count(desc.get("number_of_nodes"))
    per_node = parse_count(desc.get("accelerators_per_node"))
    cpus_per_node = parse_count(desc.get("host_processors_per_node"))
    row = {
        "submitter": str(desc.get("submitter", "")).strip(),
        "system_id": system_id,
        "division": str(desc.get("division", "")).strip().lower(),
        "availability": availability(desc.get("status")),
        "system_name": str(desc.get("system_name", "")).strip(),
        "accelerator_model": str(desc.get("accelerator_model_name", "")).strip(),
        "accelerators": per_node * nodes if per_node is not None and nodes is not None else None,
        "host_processor_model": str(desc.get("host_processor_model_name", "")).strip(),
        "host_processors": cpus_per_node * nodes if cpus_per_node is not None and nodes is not None else None,
        "nodes": nodes,
        "framework": str(desc.get("framework", "")).strip(),
    }
    if row["division"] in _DIVISION_ALIASES:
        problems.append(f"division '{row['division']}' read as '{_DIVISION_ALIASES[row['division']]}'")
        row["division"] = _DIVISION_ALIASES[row["division"]]
    elif row["division"] and row["division"] not in ("closed", "open"):
        problems.append(f"division '{row['division']}' is neither closed nor open")
    for key, value in desc.items():
        raw_key = f"raw_{key}"
        if raw_key not in row:
            row[raw_key] = value if isinstance(value, (str, int, float, bool)) or value is None else json.dumps(value, sort_keys=True)
    return row, problems


def _folded(name: str) -> str:
    return re.sub(r"[\s_]+", " ", name).strip().lower()


def folder_submitter(written: str, folder: str) -> str:
    """The submitter of a systems JSON in ``folder``: the folder's name when the JSON's spelling differs
    from it only by spaces or underscores (``Netweb Technologies India LTD`` in
    ``Netweb_Technologies_India_LTD/``) or by a number after it (``Google_1`` in ``Google/``), both read
    case-insensitively, so ``--focus`` with the folder's name finds it; else the JSON's spelling, as
    today (a difference of case alone too: ``--focus`` ignores case, and the JSON's ``Nettrix`` is the
    name MLCommons prints for the folder ``nettrix/``)."""
    if not written or not folder:
        return written or folder
    json_name, folder_name = _folded(written), _folded(folder)
    if json_name == folder_name:
        return written if written.lower() == folder.lower() else folder
    rest = json_name[len(folder_name):] if json_name.startswith(folder_name) else ""
    return folder if re.fullmatch(r"[ .-]?\d+", rest) else written


def use_folder_submitter(row: dict, folder: str, file: str, problems: list[dict], told: set) -> None:
    """Set ``row``'s submitter to its folder's name where :func:`folder_submitter` says so, and say it
    once per folder and spelling (naming the first file)."""
    written = row.get("submitter", "")
    chosen = folder_submitter(written, folder)
    if chosen != written and written:
        if (folder, written) not in told:
            told.add((folder, written))
            problems.append({"file": file, "problem": f"systems JSON: submitter '{written}' read as its folder's "
                                                      f"name '{folder}' (they differ only in spelling)"})
        row["submitter"] = chosen
