"""``build.py send``: mail each recipient the PDF report in their language, exactly once per report.

The command line only: ``mail.outbox`` checks everything before the first message goes out and
``mail.delivery`` sends each message exactly once.
"""

from __future__ import annotations

import argparse
import os
from pathlib import Path


def configure_parser(parser: argparse.ArgumentParser) -> None:
    from mlperf_report.core import paths

    parser.add_argument("--round", help="round to send, e.g. training-v1.0 (default: `round:` in the config)")
    who = parser.add_mutually_exclusive_group()
    who.add_argument("--to", help="comma-separated addresses instead of a configured list")
    who.add_argument("--list", dest="list_name", metavar="NAME",
                     help="configured recipient list (default: `mail: default_list:`)")
    parser.add_argument("--lang", help="send only the LANG report: --to addresses get it, list members "
                                       "whose language is LANG get it, others are left out")
    parser.add_argument("--dry-run", action="store_true",
                        help="write each message as .eml under output/<round>/mail/ and send nothing")
    parser.add_argument("--force", action="store_true",
                        help="send even to recipients the send log says already have this report")
    parser.add_argument("--insecure", action="store_true",
                        help="allow SMTP_SECURITY=none to a host that is not on this machine")
    parser.add_argument("--config", type=Path, default=paths.REPORT_CONFIG, help=argparse.SUPPRESS)
    parser.add_argument("--data-dir", type=Path, default=paths.DATA, help=argparse.SUPPRESS)
    parser.add_argument("--output-dir", type=Path, default=paths.OUTPUT, help=argparse.SUPPRESS)


def run(args: argparse.Namespace) -> int:
    from mlperf_report.core import paths

    to = [a.strip() for a in args.to.split(",") if a.strip()] if args.to else None
    from mlperf_report.mail.outbox import send_reports

    return send_reports(
        round_id=args.round, config_path=args.config, data_dir=args.data_dir, output_dir=args.output_dir,
        to=to, list_name=args.list_name, lang=args.lang, dry_run=args.dry_run, force=args.force,
        insecure=args.insecure, environ=os.environ, extra_inputs=[paths.TEMPLATES, paths.NOTEBOOKS],
    )
