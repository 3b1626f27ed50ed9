"""``build.py watch``: when a new round appears in the configured sources, ingest it, build its
reports and (``watch.send`` / ``--send``) mail them, once, unattended.

Each step runs as its own ``build.py`` process (a failure or a leak in one never takes the watcher
down) and is recorded in the state file when it finishes, so a restart resumes at the first
unfinished step; a failed step is mailed to ``watch.operator`` once and retried at the next check,
and nothing is sent from a round whose report did not build. ``--once`` checks once (for cron).
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import time
from pathlib import Path


def configure_parser(parser: argparse.ArgumentParser) -> None:
    from mlperf_report.core import paths

    parser.add_argument("--once", action="store_true", help="check once and exit (for cron or a systemd timer)")
    parser.add_argument("--interval", type=float, default=3600, metavar="S", help="seconds between checks (default 3600)")
    parser.add_argument("--send", action="store_true", help="mail the reports of a new round (also watch.send)")
    parser.add_argument("--dry-run", action="store_true", help="send: write .eml files instead of mailing")
    parser.add_argument("--no-compliance", action="store_true", help="ingest: skip MLCommons' compliance checker")
    parser.add_argument("--config", type=Path, default=paths.REPORT_CONFIG, help="report configuration")
    parser.add_argument("--brand", type=Path, metavar="FILE", help="report: brand.yml file (default: the configuration's)")
    parser.add_argument("--data-dir", type=Path, default=paths.DATA, help="folder of the ingest tables")
    parser.add_argument("--output-dir", type=Path, default=paths.OUTPUT, help="folder for everything generated")


def run(args: argparse.Namespace) -> int:
    from mlperf_report.core.config import load_config

    settings = load_config(args.config).watch
    while True:
        status = check(args, settings)
        if args.once:
            return status
        time.sleep(args.interval)


def check(args: argparse.Namespace, settings) -> int:
    """One check: finish rounds left unfinished, then handle every new round; 0 when all went well."""
    from mlperf_report.core import watch
    from mlperf_report.core.sources import git_repository_exists
    from mlperf_report.core.rounds import rounds_present

    state = watch.load_state(settings.state)
    known = set(rounds_present(args.data_dir)) | set(state.rounds)
    for found in watch.find_new(settings.sources, known, settings.suites, git_repository_exists):
        print(f"watch: new round {found.round_id} at {found.source}", flush=True)
        state.rounds[found.round_id] = {"source": found.source, "steps": [], "alerted": None}
        watch.save_state(settings.state, state)
    pending = [r for r in sorted(state.rounds) if not state.complete(r)]
    if not pending:
        print("watch: nothing new", flush=True)
    return max([_finish(args, settings, state, round_id) for round_id in pending], default=0)


def _finish(args, settings, state, round_id: str) -> int:
    from mlperf_report.core import watch

    send = settings.send or args.send
    for step in watch.STEPS:
        if state.done(round_id, step):
            continue
        skipped = (step == "send" and not send) or (step == "focus-each" and not settings.focus_each)
        status = 0 if skipped else _run_step(args, step, round_id, state.rounds[round_id]["source"], settings)
        if status:
            _alert(args, settings, state, round_id, step, status)
            watch.save_state(settings.state, state)
            return status
        state.finish(round_id, step)
        watch.save_state(settings.state, state)
    return 0


def _stage_argv(args, step: str, round_id: str, source: str, focus_each: str = "") -> list[str]:
    common = ["--round", round_id]
    if step == "ingest":
        return ["ingest", source, *common, "--out", str(args.data_dir / round_id),
                *(["--no-compliance"] if args.no_compliance else [])]
    dirs = ["--data-dir", str(args.data_dir), "--output-dir", str(args.output_dir), "--config", str(args.config)]
    if step in ("report", "focus-each"):
        branded = ["--brand", str(args.brand)] if getattr(args, "brand", None) else []
        return ["report", *common, *dirs, *branded, *(["--focus-each", focus_each] if step == "focus-each" else [])]
    return ["send", *common, *dirs, *(["--dry-run"] if args.dry_run else [])]


def _run_step(args, step: str, round_id: str, source: str, settings) -> int:
    from mlperf_report.core import paths

    argv = [sys.executable, str(paths.ROOT / "build.py"), *_stage_argv(args, step, round_id, source, settings.focus_each)]
    print(f"watch: {round_id}: {step} ...", flush=True)
    return subprocess.run(argv, cwd=paths.ROOT, env=os.environ.copy()).returncode


def _alert(args, settings, state, round_id: str, step: str, status: int) -> None:
    """Tell the operator once per failed step (a later check retries the step without mailing again)."""
    entry = state.rounds[round_id]
    print(f"watch: {round_id}: {step} failed (exit {status}); nothing of this round was sent", flush=True)
    if not settings.operator or entry.get("alerted") == step:
        return
    from mlperf_report.mail.alert import send_alert
    from mlperf_report.core.config import load_config

    text = (f"build.py watch: the step '{step}' of {round_id} (from {entry['source']}) failed with exit status "
            f"{status}. No report of this round was mailed. The next check retries it; steps that finished are "
            f"not repeated. To retry now: python build.py watch --once\n")
    outcome = send_alert(load_config(args.config).mail, os.environ, operator=settings.operator,
                         subject=f"MLPerf report watch: {round_id} failed at {step}", text=text)
    entry["alerted"] = step if outcome.ok else None
