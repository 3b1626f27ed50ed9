"""Command line of build.py: one subcommand per stage, each defined by the module that does the work.

Each stage module exposes ``configure_parser(parser)`` and ``run(args) -> int``; this module only wires
them together, imports them lazily (so ``--help`` stays instant) and turns the tool's own errors into
one clear line instead of a traceback.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import sys

from mlperf_report.core import processes
from mlperf_report.core.errors import UserError

#: subcommand -> (module, one-line help)
STAGES = {
    "ingest": ("mlperf_report.cli.ingest", "score an official results tree (folder, .zip/.tar.*, git URL) into data/<round>/"),
    "report": ("mlperf_report.cli.report", "run the analysis notebooks and assemble the HTML and PDF reports"),
    "send": ("mlperf_report.cli.send", "email the PDF reports to stakeholders over SMTP"),
    "all": ("mlperf_report.cli.all", "ingest, report and (with --send) send, in one go"),
    "watch": ("mlperf_report.cli.watch", "when a new round appears in the configured sources: ingest, report, send, once"),
}

EPILOG = """\
with no subcommand: build the default round from the embedded data/ in every configured language
(HTML + PDF under output/<round>/), no email.

examples:
  python build.py                                   # default report, end to end
  python build.py ingest ../shared/mlperf/training_results_v1.0.zip
  python build.py report --round training-v1.0 --benchmarks resnet,bert
  python build.py send --round training-v1.0 --dry-run

reference: README.md, docs/REPORTS.md (options), docs/INGEST.md, docs/CONFIGURATION.md, docs/MAIL.md,
docs/ROUND_DAY.md
"""


def build_parser(command: str | None = None) -> argparse.ArgumentParser:
    """The parser; only the stage being run (``command``) imports its module to add its options."""
    parser = argparse.ArgumentParser(
        prog="build.py",
        description="MLPerf report generator: official results -> charts, narrative, HTML/PDF, email.",
        epilog=EPILOG,
        formatter_class=argparse.RawDescriptionHelpFormatter,
    )
    sub = parser.add_subparsers(dest="command", metavar="{" + ",".join(STAGES) + "}")
    for name, (module_name, help_text) in STAGES.items():
        stage = sub.add_parser(name, help=help_text, description=help_text)
        stage.set_defaults(_module=module_name)
        if name == command:
            _module(module_name).configure_parser(stage)
    return parser


def _module(name: str):
    return importlib.import_module(name)


def main(argv: list[str] | None = None) -> int:
    argv = sys.argv[1:] if argv is None else argv
    if not argv:
        argv = ["report"]
    parser = build_parser(next((a for a in argv if not a.startswith("-")), None))
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    with contextlib.suppress(ValueError):  # only the main thread may set handlers (tests call from others)
        processes.interrupt_on_sigterm()
    try:
        return int(_module(args._module).run(args) or 0)
    except UserError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("interrupted", file=sys.stderr)
        return 130
