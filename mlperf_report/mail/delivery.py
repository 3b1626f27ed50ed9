"""Delivering composed messages exactly once: the send log says who already has a report (or may have
it: a run stopped mid-send), the rest are sent over SMTP, or written as .eml files in a dry run, and
every outcome is logged before the next message, so a re-run after a failure finishes the job without
mailing anyone twice."""

from __future__ import annotations

import sys
from dataclasses import dataclass, field
from pathlib import Path


def say(text: str) -> None:
    print(text, file=sys.stdout, flush=True)


def warn(text: str) -> None:
    print(text, file=sys.stderr, flush=True)


def now_utc() -> str:
    from datetime import datetime, timezone

    return datetime.now(timezone.utc).isoformat(timespec="seconds")


def eml_name(lang: str, address: str, focus=None) -> str:
    """``en-press_example.com.eml`` (``en-dell-press_example.com.eml`` for a focus's report): one file per
    recipient and report, safe on every file system."""
    from mlperf_report.assemble.batch import slug

    safe = "".join(c if c.isalnum() or c in "._-" else "_" for c in address.replace("@", "_"))
    return f"{lang}-{slug(focus)}-{safe}.eml" if focus is not None else f"{lang}-{safe}.eml"


@dataclass(frozen=True)
class Job:
    """One message to build and send: who, what it carries (``attachments.Attachment``s: the report's
    PDF, or the deliverables of the recipient's role) and their checksum."""

    recipient: object
    attachments: tuple
    sha256: str
    round_dir: Path | None = None   # the built report's folder (its figures lead the message)

    @property
    def what(self) -> str:
        """The attachments' names, as the log lines and the send log name them."""
        return ", ".join(a.path.name for a in self.attachments)


@dataclass
class _Tally:
    """Who got what in one run: the outcome lists the summary line is made of."""

    sent: list = field(default_factory=list)
    skipped: list = field(default_factory=list)
    failed: list = field(default_factory=list)
    written: list = field(default_factory=list)


def deliver(jobs: list[Job], compose, session, mail_dir: Path, round_id: str, *, force: bool,
             envelope_from: str) -> int:
    """Skip what the send log says is done (or in flight), send or write the rest, log each outcome."""
    from mlperf_report.mail import sendlog, smtp

    log = sendlog.log_path(mail_dir)
    tally = _Tally()
    with sendlog.exclusive(log):
        entries = sendlog.read_entries(log)
        known = (sendlog.sent_keys(entries), sendlog.in_flight_keys(entries))
        try:
            for job in jobs:
                if _settled(job, known, force, tally):
                    continue
                message, wire = compose(job)
                if session is None:
                    _write_eml(job, wire, mail_dir, tally)
                else:
                    _send_logged(job, message, wire, session, log, round_id, envelope_from, tally)
        except smtp.Fatal:
            untried = len(jobs) - len(tally.sent) - len(tally.skipped) - len(tally.failed)
            warn(f"stopped: sent {len(tally.sent)}, not attempted {untried}")
            raise
        finally:
            if session is not None:
                session.close()
    return _summary(tally, dry_run=session is None, mail_dir=mail_dir)


def _settled(job: Job, known: tuple, force: bool, tally: _Tally) -> bool:
    """True when this recipient must not get a message now: already sent, maybe sent, or a bad address."""
    from mlperf_report.mail import message as mail
    from mlperf_report.mail import sendlog

    done, in_flight = known
    address, name = job.recipient.email, job.what
    if not force and sendlog.already_sent(done, address, job.sha256):
        tally.skipped.append(address)
        say(f"skip  {address}: already has this {name} (sha256 {job.sha256[:12]})")
        return True
    if not force and sendlog.already_sent(in_flight, address, job.sha256):
        tally.failed.append(address)
        warn(f"FAIL  {address}: an earlier run stopped while sending this {name} to them, so it "
              f"may have been delivered; ask them, then use --to {address} --force if it was not")
        return True
    problem = mail.address_problem(address)
    if problem:
        tally.failed.append(address)
        warn(f"FAIL  {address}: {problem}")
        return True
    return False


def _write_eml(job: Job, wire: bytes, mail_dir: Path, tally: _Tally) -> None:
    from mlperf_report.core import atomic

    path = atomic.write_bytes(mail_dir / eml_name(job.recipient.lang, job.recipient.email,
                                                  getattr(job.recipient, "focus", None)), wire)
    tally.written.append(path)
    say(f"wrote {path} (not sent)")


def _send_logged(job: Job, message, wire: bytes, session, log: Path, round_id: str, envelope_from: str,
                 tally: _Tally) -> None:
    """Send one message with a ``sending`` line before it and its outcome after it in the send log."""
    from mlperf_report.mail import sendlog, smtp

    address = job.recipient.email
    focus = getattr(job.recipient, "focus", None)
    entry = {"round": round_id, "focus": focus.key if focus else "", "recipient": address,
             "name": job.recipient.name, "lang": job.recipient.lang, "report": job.what, "sha256": job.sha256,
             "message_id": message["Message-ID"]}
    sendlog.append(log, dict(entry, status=sendlog.SENDING, time=now_utc()))
    try:
        outcome = session.send(envelope_from, address, wire)
    except smtp.Fatal as error:  # login / TLS: refused before any DATA, so surely not sent
        sendlog.append(log, dict(entry, time=now_utc(), status=sendlog.FAILED, error=str(error)))
        raise
    status = sendlog.SENT if outcome.ok else sendlog.MAYBE if outcome.uncertain else sendlog.FAILED
    entry.update(time=now_utc(), attempts=outcome.attempts, status=status)
    if not outcome.ok:
        entry["error"] = outcome.detail
    sendlog.append(log, entry)
    if outcome.uncertain:
        tally.failed.append(address)
        warn(f"FAIL  {address}: {outcome.detail}; not sent again: ask them, then use --to {address} --force "
              "if it did not arrive")
    elif outcome.ok:
        tally.sent.append(address)
        say(f"sent  {address} ({job.recipient.lang}, {message['Message-ID']})")
    else:
        kind = "refused" if outcome.permanent else f"gave up after {outcome.attempts} attempts"
        tally.failed.append(address)
        warn(f"FAIL  {address}: {kind}: {outcome.detail}")


def _summary(tally: _Tally, *, dry_run: bool, mail_dir: Path) -> int:
    """The closing line and the exit code: 0 only when everyone has the report."""
    if dry_run:
        say(f"dry run: {len(tally.written)} message(s) written under {mail_dir}, {len(tally.skipped)} already "
             "sent, nothing sent")
        return 1 if tally.failed else 0
    summary = f"sent {len(tally.sent)}, already sent {len(tally.skipped)}, failed {len(tally.failed)}"
    if tally.failed:
        warn(f"{summary}: {', '.join(tally.failed)}; fix them and run the same command again: "
              "who already has the report is skipped")
        return 1
    say(summary + (" (--force sends again)" if tally.skipped and not tally.sent else ""))
    return 0
