"""``build.py all [SOURCE] [--send]``: ingest (when a source is given), report, and optionally send.

Each stage runs exactly as its own subcommand would, with the options passed through, and the chain
stops at the first stage that fails, so nothing is mailed from a build that did not finish.
"""

from __future__ import annotations

import argparse
from pathlib import Path


def configure_parser(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("source", nargs="?",
                        help="results tree to ingest first (folder, archive or git URL); default: the embedded data/")
    parser.add_argument("--round", dest="round_id", metavar="ROUND", help="round id (default: from SOURCE's name, "
                        "else report.yaml's)")
    parser.add_argument("--absent", metavar="FILE", help="ingest: list of result files missing from this copy")
    parser.add_argument("--benchmarks", metavar="LIST", help="report: comma-separated benchmarks")
    parser.add_argument("--jobs", "-j", type=int, metavar="N", help="worker processes (default: CPU count)")
    parser.add_argument("--force", action="store_true", help="report: re-run every notebook and re-assemble")
    parser.add_argument("--focus", metavar="SUBMITTER", help="report: submitter whose story is told, or `none`")
    parser.add_argument("--focus-accelerator", metavar="PATTERN", help="report: an accelerator across its submitters")
    parser.add_argument("--brand", metavar="FILE", help="report: brand.yml file (colours, logo, typefaces)")
    parser.add_argument("--send", action="store_true", help="email the PDFs when the report is built")
    parser.add_argument("--to", help="send: comma-separated addresses instead of a configured list")
    parser.add_argument("--list", dest="list_name", metavar="NAME", help="send: configured recipient list")
    parser.add_argument("--dry-run", action="store_true", help="send: write .eml files instead of sending")
    parser.add_argument("--data-dir", metavar="DIR", help="tables folder: ingest writes DIR/<round>/, report and "
                        "send read DIR (default: data/)")
    parser.add_argument("--output-dir", metavar="DIR", help="report and send: folder for everything generated "
                        "(default: output/)")


def stage_argvs(args: argparse.Namespace, round_id: str | None) -> list[list[str]]:
    """The subcommand lines ``all`` stands for (pure, so tests can check what each stage gets)."""
    def opt(flag: str, value) -> list[str]:
        return [flag, str(value)] if value not in (None, False, "") else []

    data_dir, output_dir = getattr(args, "data_dir", None), getattr(args, "output_dir", None)
    dirs = [*opt("--data-dir", data_dir), *opt("--output-dir", output_dir)]
    stages = []
    if args.source:
        if data_dir and not round_id:
            raise ValueError("--data-dir needs the round to name the ingest's output folder")
        out = opt("--out", data_dir and str(Path(data_dir) / round_id))
        stages.append(["ingest", args.source, *opt("--round", round_id), *opt("--absent", args.absent),
                       *opt("--jobs", args.jobs), *out])
    stages.append(["report", *opt("--round", round_id), *opt("--benchmarks", args.benchmarks), *dirs,
                   *opt("--jobs", args.jobs), *opt("--focus", getattr(args, "focus", None)),
                   *opt("--focus-accelerator", getattr(args, "focus_accelerator", None)),
                   *opt("--brand", getattr(args, "brand", None)),
                   *(["--force"] if args.force else [])])
    if args.send:
        stages.append(["send", *opt("--round", round_id), *opt("--to", args.to), *opt("--list", args.list_name),
                       *(["--dry-run"] if args.dry_run else []), *dirs])
    return stages


def run(args: argparse.Namespace) -> int:
    from mlperf_report.cli.main import main
    from mlperf_report.cli.ingest import resolve_round

    round_id = args.round_id
    if args.source and not round_id:
        round_id = resolve_round(None, args.source).id
    for argv in stage_argvs(args, round_id):
        status = main(argv)
        if status:
            print(f"all: stopped after `{argv[0]}` failed (exit {status})")
            return status
    return 0
