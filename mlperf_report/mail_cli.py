"""``build.py send``: mail each recipient the PDF report in their language, exactly once per report.

Everything that can be checked is checked before the first message goes out (recipients, languages,
every report file, SMTP settings), so a mistake costs no half-mailed list. The send log then makes a
re-run after a failure finish the job without mailing anyone twice.
"""

from __future__ import annotations

import argparse
import os
import sys
from pathlib import Path


def configure_parser(parser: argparse.ArgumentParser) -> None:
    from mlperf_report import paths

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
    from mlperf_report import paths

    to = [a.strip() for a in args.to.split(",") if a.strip()] if args.to else None
    return send_reports(
        round_id=args.round, config_path=args.config, data_dir=args.data_dir, output_dir=args.output_dir,
        to=to, list_name=args.list_name, lang=args.lang, dry_run=args.dry_run, force=args.force,
        insecure=args.insecure, environ=os.environ, extra_inputs=[paths.TEMPLATES, paths.NOTEBOOKS],
    )


def _say(text: str) -> None:
    print(text, file=sys.stdout, flush=True)


def _warn(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def _now() -> str:
    from datetime import datetime, timezone

    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def _files_under(folders) -> list[Path]:
    found = []
    for folder in folders:
        folder = Path(folder)
        if folder.is_dir():
            found += [p for p in folder.rglob("*") if p.is_file() and "__pycache__" not in p.parts
                      and not p.name.startswith(".")]
    return found


def eml_name(lang: str, address: str) -> str:
    """``en-press_example.com.eml``: one file per recipient, safe on every file system."""
    safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in address.replace("@", "_"))
    return f"{lang}-{safe}.eml"


def send_reports(*, round_id: str | None, config_path: Path, data_dir: Path, output_dir: Path,
                 to: list[str] | None = None, list_name: str | None = None, lang: str | None = None,
                 dry_run: bool = False, force: bool = False, insecure: bool = False,
                 environ: dict | os._Environ = None, retry=None, extra_inputs=(), now=None) -> int:
    """Send (or with ``dry_run`` write) every message; 0 when every recipient has the report, else 1."""
    from datetime import datetime, timezone

    from mlperf_report import atomic, mail, mail_config, paths, report_check, rounds, sendlog, smtp_send
    from mlperf_report.errors import UserError

    environ = {} if environ is None else environ
    config = mail_config.load_config(config_path)
    section = mail_config.mail_section(config)
    langs = mail_config.languages(config)
    try:
        the_round = rounds.parse_round(round_id or str(config.get("round") or ""))
    except ValueError as error:
        raise UserError(f"{error}; pass --round or set `round:` in {config_path}") from None
    recipients = mail_config.select_recipients(section, langs, to=to, list_name=list_name, lang=lang)
    if not recipients:
        raise UserError("no recipients selected (empty list, or none in that --lang)")

    round_dir = paths.round_output(the_round.id, Path(output_dir))
    mail_dir = round_dir / "mail"
    inputs = report_check.report_inputs(paths.round_data(the_round.id, Path(data_dir)),
                                        [Path(data_dir) / "prices.yaml", Path(config_path)])
    inputs += _files_under(extra_inputs)
    reports = {}
    for wanted in sorted({r.lang for r in recipients}):
        pdf_path = report_check.report_pdf(round_dir, wanted, langs)
        data = report_check.checked_pdf(pdf_path, inputs, the_round.id)
        reports[wanted] = (pdf_path, data, mail.sha256(data))

    figures = mail.load_figures(round_dir / "figures")
    focus = config.get("focus_submitter")
    title = str(config.get("title") or "MLPerf")
    sender = str(section["sender"])
    envelope_from = mail.envelope_sender(sender)
    settings = None
    if not dry_run:
        settings = smtp_send.settings_from(section.get("smtp") or {}, environ, insecure=insecure)
        smtp_cfg = section.get("smtp") or {}
        retry = retry or smtp_send.Retry(attempts=int(smtp_cfg.get("attempts", 4)),
                                         backoff=float(smtp_cfg.get("backoff", 2.0)))

    log = sendlog.log_path(mail_dir)
    sent, skipped, failed, written = [], [], [], []
    with sendlog.exclusive(log):
        entries = sendlog.read_entries(log)
        done, in_flight = sendlog.sent_keys(entries), sendlog.in_flight_keys(entries)
        session = smtp_send.Session(settings, retry, note=_warn) if settings else None
        try:
            for recipient in recipients:
                pdf_path, data, checksum = reports[recipient.lang]
                if not force and sendlog.already_sent(done, recipient.email, checksum):
                    skipped.append(recipient.email)
                    _say(f"skip  {recipient.email}: already has this {pdf_path.name} (sha256 {checksum[:12]})")
                    continue
                if not force and sendlog.already_sent(in_flight, recipient.email, checksum):
                    failed.append((recipient.email, "may have been delivered"))
                    _warn(f"FAIL  {recipient.email}: an earlier run stopped while sending this {pdf_path.name} to "
                          f"them, so it may have been delivered; ask them, then use --to {recipient.email} "
                          "--force if they did not get it")
                    continue
                problem = mail.address_problem(recipient.email)
                if problem:
                    failed.append((recipient.email, problem))
                    _warn(f"FAIL  {recipient.email}: {problem}")
                    continue
                filename = f"mlperf-{the_round.id}-report.{recipient.lang}.pdf"
                text, markup = mail.bodies(recipient, title=title, round_title=the_round.title,
                                           filename=filename, source=config.get("source"),
                                           headlines=mail.headline_lines(figures, recipient.lang))
                message = mail.build_message(
                    sender=sender, recipient=recipient,
                    subject_line=mail.subject(the_round.title, focus, recipient.lang),
                    text=text, markup=markup, pdf=data, filename=filename,
                    now=now or datetime.now(timezone.utc))
                wire = mail.to_bytes(message)
                if dry_run:
                    path = atomic.write_bytes(mail_dir / eml_name(recipient.lang, recipient.email), wire)
                    written.append(path)
                    _say(f"wrote {path} (not sent)")
                    continue
                entry = {"round": the_round.id, "recipient": recipient.email, "name": recipient.name,
                         "lang": recipient.lang, "report": pdf_path.name, "sha256": checksum,
                         "message_id": message["Message-ID"]}
                sendlog.append(log, dict(entry, status=sendlog.SENDING, time=_now()))
                try:
                    outcome = session.send(envelope_from, recipient.email, wire)
                except smtp_send.Fatal as error:  # login / TLS: refused before any DATA, so surely not sent
                    sendlog.append(log, dict(entry, time=_now(), status=sendlog.FAILED, error=str(error)))
                    raise
                entry.update(time=_now(), attempts=outcome.attempts,
                             status=sendlog.SENT if outcome.ok else sendlog.FAILED)
                if not outcome.ok:
                    entry["error"] = outcome.detail
                sendlog.append(log, entry)
                if outcome.ok:
                    sent.append(recipient.email)
                    _say(f"sent  {recipient.email} ({recipient.lang}, {message['Message-ID']})")
                else:
                    kind = "refused" if outcome.permanent else f"gave up after {outcome.attempts} attempts"
                    failed.append((recipient.email, f"{kind}: {outcome.detail}"))
                    _warn(f"FAIL  {recipient.email}: {kind}: {outcome.detail}")
        except smtp_send.Fatal:
            untried = len(recipients) - len(sent) - len(skipped) - len(failed)
            _warn(f"stopped: sent {len(sent)}, not attempted {untried}")
            raise
        finally:
            if session:
                session.close()

    if dry_run:
        _say(f"dry run: {len(written)} message(s) written under {mail_dir}, {len(skipped)} already sent, "
             f"nothing sent")
        return 1 if failed else 0
    summary = f"sent {len(sent)}, already sent {len(skipped)}, failed {len(failed)}"
    if failed:
        _warn(summary + ": " + ", ".join(address for address, _ in failed)
              + "; fix them and run the same command again: who already has the report is skipped")
        return 1
    _say(summary + (" (--force sends again)" if skipped and not sent else ""))
    return 0
