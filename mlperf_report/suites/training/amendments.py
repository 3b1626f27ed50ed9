"""Checker rules as a round was reviewed: amendments to today's mlperf-logging rulesets, as data.

Only the newest mlperf-logging releases are on PyPI, and their rulesets are not always the ones a
round was reviewed with: rules were made stricter or renamed after rounds were published (the v1.1
weight-initialization checks became errors in 2022; v2.1's BERT key was renamed after its submission
window). ``data/checker_amendments.yaml`` records each such change with its public source. Here each
amendment becomes a patched copy of the round's rule files, which the checker itself runs (see
``compliance.check_lines``): no rule is re-implemented, only the YAML the checker reads differs.
"""

from __future__ import annotations

import hashlib
import json
import os
from dataclasses import dataclass
from pathlib import Path

from mlperf_report.core import paths
from mlperf_report.core.atomic import write_texts
from mlperf_report.core.errors import InputError

FILE = paths.DATA / "checker_amendments.yaml"
USAGE = "training"
KINDS = ("warning", "rename_key", "override")


@dataclass(frozen=True)
class Amendment:
    """One rule that changed after a round, and how the round was reviewed."""

    id: str
    round: str
    benchmarks: tuple[str, ...]
    rule: str
    reviewed: str
    patch: dict
    sources: tuple[dict, ...]

    def summary(self) -> dict:
        """What the manifest says about it (sources as ``mlcommons/logging#220`` references)."""
        return {"id": self.id, "rule": self.rule, "reviewed": self.reviewed,
                "sources": [source.get("ref", "") for source in self.sources]}


@dataclass(frozen=True)
class Reviewed:
    """A round's amended rule files, ready for the checker: the package's own file -> the patched
    copy, and the amendments each copy carries."""

    digest: str
    swapped: dict  # absolute path of the checker's YAML -> absolute path of the amended copy
    applied: dict  # absolute path of the checker's YAML -> amendment ids


def _entry(raw: dict, where: Path) -> Amendment:
    try:
        patch = dict(raw["patch"])
        if patch.get("kind") not in KINDS or not patch.get("key"):
            raise ValueError(f"patch.kind must be one of {', '.join(KINDS)}, with a key")
        if patch["kind"] == "rename_key" and not patch.get("reviewed_key"):
            raise ValueError("a rename_key patch needs reviewed_key")
        if patch["kind"] == "override" and not (isinstance(patch.get("records"), list) and patch["records"]):
            raise ValueError("an override patch needs the records it adds")
        sources = tuple(dict(s) for s in raw["sources"])
        if not sources:
            raise ValueError("every amendment needs a public source")
        return Amendment(str(raw["id"]), str(raw["round"]), tuple(str(b) for b in raw["benchmarks"]),
                         str(raw["rule"]), str(raw["reviewed"]), patch, sources)
    except (KeyError, TypeError, ValueError) as error:
        name = raw.get("id", "?") if isinstance(raw, dict) else repr(raw)
        why = f"missing {error}" if isinstance(error, KeyError) else str(error)
        raise InputError(f"{where}: amendment {name} is not valid ({why})") from None


def load(path: Path = FILE) -> tuple[Amendment, ...]:
    """Every amendment in the file (read once per ingest); an absent file is no amendments, an
    invalid one an error naming the file."""
    from mlperf_report.core.yaml_files import read_yaml

    if not Path(path).exists():
        return ()
    data = read_yaml(path, what="checker amendments", fix="see ARCHITECTURE.md")
    return tuple(_entry(raw, Path(path)) for raw in (data.get("amendments") or []))


def display_path(path: Path = FILE) -> str:
    """The amendments file as messages and the manifest name it (relative to the project)."""
    try:
        return Path(path).resolve().relative_to(paths.ROOT).as_posix()
    except ValueError:
        return str(path)


def for_round(round_id: str, path: Path = FILE) -> tuple[Amendment, ...]:
    return tuple(a for a in load(path) if a.round == round_id)


def digest(amendments: tuple[Amendment, ...]) -> str:
    """Content of a round's amendments, for the verdict cache's key (a changed entry: new verdicts)."""
    text = json.dumps([[a.id, a.benchmarks, a.patch] for a in amendments], sort_keys=True)
    return hashlib.sha256(text.encode()).hexdigest()[:16]


def checker_dir() -> Path:
    from mlperf_logging.compliance_checker import mlp_compliance

    return Path(os.path.dirname(os.path.abspath(mlp_compliance.__file__)))


def _patch_key(records: list, amendment: Amendment) -> bool:
    patch, changed = amendment.patch, False
    for record in records:
        body = record.get("KEY") if isinstance(record, dict) else None
        if not isinstance(body, dict) or body.get("NAME") != patch["key"]:
            continue
        if patch["kind"] == "rename_key":
            body["NAME"], changed = patch["reviewed_key"], True
        else:
            changed |= any(body.pop(field, None) is not None for field in ("REQ", "CHECK", "ATLEAST_ONE_CHECK"))
    return changed


def _override(records: list, amendment: Amendment) -> bool:
    """Add rule records to a benchmark's file. A KEY there overrides the common rules' messages for
    that key (the checker's own mechanism: later configs overwrite earlier ones), so the records
    re-state the common checks with the reviewed limit. A second BEGIN or END block is an error."""
    added = [dict(record) for record in amendment.patch["records"]]
    for block in ("BEGIN", "END"):
        if any(block in r for r in added) and any(isinstance(r, dict) and block in r for r in records):
            raise InputError(f"checker amendment {amendment.id}: the rule file already has a {block} block")
    records.extend(added)
    return True


def _patch_end(records: list, naming: str) -> bool:
    """Drop the END checks that mention ``naming`` (a warning then, not a failure)."""
    changed = False
    for record in records:
        body = record.get("END") if isinstance(record, dict) else None
        if not naming or not isinstance(body, dict) or "CHECK" not in body:
            continue
        checks = body["CHECK"] if isinstance(body["CHECK"], list) else [body["CHECK"]]
        kept = [check for check in checks if naming not in check]
        if len(kept) != len(checks):
            changed = True
            if kept:
                body["CHECK"] = kept
            else:
                del body["CHECK"]
    return changed


def _apply(records: list, amendment: Amendment) -> bool:
    """Change one rule file's records as the amendment says; whether anything changed."""
    if amendment.patch["kind"] == "override":
        return _override(records, amendment)
    changed = _patch_key(records, amendment)
    if amendment.patch["kind"] == "warning":
        changed |= _patch_end(records, amendment.patch.get("end_checks_naming", ""))
    return changed


def patched_rules(ruleset: str, amendments: tuple[Amendment, ...]) -> dict[str, tuple[str, tuple[str, ...]]]:
    """``training_<ruleset>/<file>.yaml`` -> (amended YAML text, amendment ids), read and parsed as
    the checker parses them (``yaml.BaseLoader``: every value a string). An amendment that changes
    nothing in the installed checker is an error: the data no longer matches the checker."""
    import yaml

    folder, texts = checker_dir() / f"{USAGE}_{ruleset}", {}
    records_of: dict[str, list] = {}
    ids_of: dict[str, list] = {}
    for amendment in amendments:
        changed = False
        for name in (f"{d}_{b}.yaml" for b in amendment.benchmarks for d in ("closed", "open")):
            if not (folder / name).is_file():
                continue
            records = records_of.get(name)
            if records is None:
                records = yaml.load((folder / name).read_text(encoding="utf-8"), Loader=yaml.BaseLoader) or []
            if name.split("_", 1)[0] not in amendment.patch.get("divisions", ("closed", "open")):
                continue
            if _apply(records, amendment):
                records_of[name], changed = records, True
                ids_of.setdefault(name, []).append(amendment.id)
        if not changed:
            raise InputError(f"checker amendment {amendment.id} changes nothing in mlperf-logging's "
                             f"{USAGE}_{ruleset} rules; is the entry still right for this checker version?")
    for name, records in records_of.items():
        texts[f"{USAGE}_{ruleset}/{name}"] = (yaml.safe_dump(records, sort_keys=True, width=4096), tuple(ids_of[name]))
    return texts


def prepare(ruleset: str, amendments: tuple[Amendment, ...], cache_dir: Path) -> Reviewed | None:
    """Write the round's amended rule files under ``cache_dir`` (content-addressed, so concurrent or
    repeated ingests write the same bytes) and map the checker's files to them; None: no amendments."""
    if not amendments:
        return None
    rules = patched_rules(ruleset, amendments)
    key = digest(amendments)
    try:
        return _write(rules, key, cache_dir / "compliance" / "amended" / f"{USAGE}_{ruleset}-{key}")
    except OSError:  # a read-only checkout still ingests: the copies go to a temporary folder
        import tempfile

        return _write(rules, key, Path(tempfile.mkdtemp(prefix=f"mlperf-report-{USAGE}_{ruleset}-")))


def _write(rules: dict, key: str, folder: Path) -> Reviewed:
    swapped, applied, todo = {}, {}, {}
    for relative, (text, ids) in sorted(rules.items()):
        target = folder / Path(relative).name
        original = str(checker_dir() / relative)
        swapped[original], applied[original] = str(target.resolve()), ids
        if not target.is_file() or target.read_text(encoding="utf-8") != text:
            todo[target] = text
    if todo:
        write_texts(todo)
    return Reviewed(key, swapped, applied)
