"""``build.py ingest SOURCE``: score an official results tree into ``data/<round>/``."""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

from mlperf_report.core.errors import UserError
from mlperf_report.ingest.summary import official_lines, summary_line, unknown_chips_line


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", help="results tree: a folder, a .zip or .tar.* archive of one, or a git URL")
    parser.add_argument("--round", dest="round_id", metavar="ROUND",
                        help="round id, e.g. training-v1.0 (default: from a training_results_vX.Y name in SOURCE)")
    parser.add_argument("--out", type=Path, metavar="DIR", help="output folder (default: data/<round>/)")
    parser.add_argument("--jobs", type=int, default=None, metavar="N",
                        help="worker processes for scanning logs (default: CPU count)")
    parser.add_argument("--absent", type=Path, metavar="FILE",
                        help="list of result files known to be missing from this copy of the tree (one path per "
                             "line, e.g. ../shared/mlperf/ABSENT.txt); their result sets are reported as incomplete")
    parser.add_argument("--no-compliance", dest="compliance", action="store_false",
                        help="skip MLCommons' compliance checker (quick look: the manifest then says the scores are unchecked)")
    parser.add_argument("--official", type=Path, metavar="FILE",
                        help="MLCommons' results table (the summarizer's .xlsx, or a CSV with id, submitter, system): "
                             "the MLPerf result IDs of a Training round")
    parser.add_argument("--strict", action="store_true", help="exit non-zero when any problem was found")
    parser.add_argument("--quiet", action="store_true", help="print only the summary line")


def resolve_round(round_id: str | None, *names: str):
    """The suite's round object for ``--round``, else for the first ``<suite>_results_vX.Y`` name."""
    from mlperf_report.core.rounds import round_from_tree_name
    from mlperf_report.suites import suite_for

    found = round_id or next((str(r) for r in map(round_from_tree_name, names) if r), None)
    if not found:
        raise UserError("cannot tell the round from the source name; pass --round, e.g. --round training-v1.0")
    try:
        return suite_for(found).parse_round(found)
    except ValueError as error:
        raise UserError(str(error)) from error


def read_absent(path: Path) -> list[str]:
    try:
        return path.read_text(encoding="utf-8").splitlines()
    except OSError as error:
        raise UserError(f"{path}: cannot read the --absent list ({error.strerror})") from error


def _progress(stream, what: str = "scanning logs"):
    last = [0.0]

    def report(done: int, total: int) -> None:
        now = time.monotonic()
        if stream.isatty() and (now - last[0] > 0.1 or done == total):
            last[0] = now
            stream.write(f"\r  {what}: {done}/{total}")
            if done == total:
                stream.write("\n")
            stream.flush()

    return report


def run(args: argparse.Namespace) -> int:
    from mlperf_report.core import paths
    from mlperf_report.core.sources import open_source
    from mlperf_report.suites import suite_for

    started = time.perf_counter()
    source, facts = open_source(args.source)
    try:
        round_ = resolve_round(args.round_id, args.source, source.label)
        out_dir = args.out or paths.round_data(round_.id)
        absent = read_absent(args.absent) if args.absent else []
        ingest = suite_for(round_.id)
        what = "checking logs (compliance)" if args.compliance else "scanning logs"
        options = {"official": args.official} if args.official else {}  # a suite without IDs needs no such option
        result = ingest.ingest(source, facts, round_, jobs=args.jobs, progress=_progress(sys.stderr, what),
                               absent=absent, compliance=args.compliance, **options)
    finally:
        source.close()
    written = ingest.write_tables(result, out_dir)
    if not args.quiet:
        for problem in result.problems:
            print(f"  problem: {problem['file']}: {problem['problem']}", file=sys.stderr)
    for line in official_lines(result.manifest):
        print(line)
    print(summary_line(round_.id, result, written, out_dir, time.perf_counter() - started))
    unknown = unknown_chips_line(result)
    if unknown:
        print(unknown)
    return _strict_exit(args, result, out_dir)


def _strict_exit(args: argparse.Namespace, result, out_dir: Path) -> int:
    """With ``--strict``, problems and drift alarms make the exit code 1."""
    drift = (result.manifest.get("compliance") or {}).get("drift") or []
    if args.strict and drift:
        print(f"--strict: the compliance checker fails one rule across submitters in {len(drift)} benchmark(s) "
              f"(drift; see {out_dir / 'manifest.json'})", file=sys.stderr)
    if args.strict and result.problems:
        print(f"--strict: {len(result.problems)} problems (listed above and in {out_dir / 'manifest.json'})",
              file=sys.stderr)
    return 1 if args.strict and (result.problems or drift) else 0
