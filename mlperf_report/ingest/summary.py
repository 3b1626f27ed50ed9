"""The one line ``build.py ingest`` ends with: what the tree held, what was wrong, what the compliance
checker said (for a suite that runs one), and what was written where."""

from __future__ import annotations

from pathlib import Path

from mlperf_report.core import accelerators
from mlperf_report.ingest.official import official_line


def summary_line(round_id: str, result, written: list[Path], out_dir: Path, seconds: float) -> str:
    counts = result.manifest["counts"]
    statuses = ", ".join(f"{n} {s}" for s, n in counts["by_status"].items())
    return (f"{round_id}: {counts['result_files']} result files, {counts['result_sets']} result sets ({statuses}); "
            f"{counts['problems']} problems, {counts['ignored']} files ignored; {verdicts(result)}"
            f"wrote {', '.join(p.name for p in written)} to {out_dir} in {seconds:.2f} s")


def verdicts(result) -> str:
    """The summary line's word on the compliance checker (a suite without one says nothing)."""
    if "compliance" not in result.manifest:
        return ""
    compliance = result.manifest["compliance"] or {}
    if not compliance.get("checked"):
        return "compliance NOT checked (scores unchecked); "
    amended = sum(a.get("runs", 0) for a in compliance.get("amendments", []))
    return (f"{compliance['noncompliant']} of {compliance['files_checked']} files not compliant "
            f"({result.verdicts_from_cache} verdicts from the cache)"
            + (f", {amended} compliant as the round was reviewed ({compliance['amendments_file']})" if amended else "")
            + "; " + "".join(_drift_words(compliance)))


def _drift_words(compliance: dict) -> list[str]:
    """The drift alarm in the summary line: a rule failing across a benchmark's submitters."""
    return [f"DRIFT? {alarm['benchmark']}: {alarm['runs']} of {alarm['of_runs']} runs of "
            f"{len(alarm['submitters'])} submitters fail {alarm['rule']!r} (a rule changed after the round? "
            f"record how the round was reviewed in {compliance['amendments_file']}); "
            for alarm in compliance.get("drift", [])]


def official_lines(manifest: dict) -> list[str]:
    """What ingest says of MLCommons' own numbers: the comparison with the tree's summaries (one line)
    and the results table's IDs (one line, the rows that matched no result listed once)."""
    lines = [line] if (line := official_line(manifest)) else []
    ids = manifest.get("official_ids")
    if ids:
        unmatched = ids["unmatched"]
        lines.append(f"MLCommons results table {ids['file']}: {ids['matched']} of {ids['rows']} rows matched a system"
                     + (f"; not matched: {'; '.join(unmatched)}" if unmatched else ""))
    return lines


def unknown_chips_line(result, generations: accelerators.Generations | None = None) -> str:
    """The line after the summary naming, once each, the chips ``data/accelerators.yaml`` does not
    resolve (unknown, or several in one text): they are named as written and get no generation or
    debut claim until added. Empty when every chip is known."""
    frame = getattr(result, "results", None)  # a suite's result need not have a results frame
    if not hasattr(frame, "columns") or frame.empty or "accelerator_model" not in frame:
        return ""
    columns = [frame[c] if c in frame else [None] * len(frame)
               for c in ("accelerator_model", "accelerators", "host_processor_model")]
    texts = accelerators.unknown(zip(*columns), generations or accelerators.load())
    if not texts:
        return ""
    return (f"not in data/accelerators.yaml: {', '.join(repr(t) for t in texts)}; named as written; "
            f"add it for generation and debut claims")
