"""A plain message to the operator when unattended work fails (``build.py watch``): what failed and
what to do, over the same SMTP settings as the reports, never with a report attached."""

from __future__ import annotations

from datetime import datetime, timezone
from email import policy
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid
from typing import Mapping

from mlperf_report.mail import smtp
from mlperf_report.mail.message import envelope_sender, parse_address


def alert_message(*, sender: str, operator: str, subject: str, text: str, now: datetime | None = None) -> EmailMessage:
    """One plain-text message from the report sender to the operator."""
    from_address = parse_address(sender)
    message = EmailMessage(policy=policy.SMTP)
    message["From"] = from_address
    message["To"] = Address(addr_spec=operator)
    message["Subject"] = subject
    message["Date"] = format_datetime(now or datetime.now(timezone.utc))
    message["Message-ID"] = make_msgid(domain=from_address.domain or "localhost")
    message.set_content(text, charset="utf-8")
    return message


def send_alert(mail: Mapping, environ: Mapping[str, str], *, operator: str, subject: str, text: str,
               insecure: bool = False) -> smtp.Outcome:
    """Mail ``text`` to ``operator`` with the ``mail:`` section's sender and SMTP settings."""
    sender = str(mail.get("sender") or "")
    settings = smtp.settings_from(mail.get("smtp") or {}, environ, insecure=insecure)
    message = alert_message(sender=sender, operator=operator, subject=subject, text=text)
    with smtp.Session(settings, smtp.Retry(attempts=2, backoff=1.0)) as session:
        return session.send(envelope_sender(sender), operator, message.as_bytes(policy=policy.SMTP))
