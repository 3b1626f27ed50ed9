"""The email a stakeholder receives: subject, plain-text + HTML body, and the PDF in their language.

Built with the standard library's ``EmailMessage`` so MIME, encoded UTF-8 headers (the Chinese subject
and names), ``Message-ID`` and ``Date`` are right by construction. The body's figures are the
narrative's headline lines and their notes (``narrative.headline_summary`` / ``headline_notes``, made
from figures.json like the report itself), passed in as plain strings: this module types no number.
"""

from __future__ import annotations

import hashlib
import html
import re
from datetime import datetime
from email import policy
from email.headerregistry import Address
from email.message import EmailMessage
from email.utils import format_datetime, make_msgid

from mlperf_report.i18n import catalogue
from mlperf_report.mail.recipients import Recipient

#: An ASCII address (smtplib cannot put other addresses in an envelope without SMTPUTF8).
_ADDRESS = re.compile(r"^[A-Za-z0-9!#$%&'*+/=?^_`{|}~.-]+@[A-Za-z0-9](?:[A-Za-z0-9.-]*[A-Za-z0-9])?$")

#: The email's own words; their text per language is in the catalogue (``mail.<word>``).
_WORDS = ("subject", "subject_nofocus", "greeting", "greeting_noname", "intro", "headlines", "notes", "source")


def _words(lang: str) -> dict:
    return {word: catalogue.message(f"mail.{word}", lang) for word in _WORDS}


def sha256(data: bytes) -> str:
    """The report checksum the send log keys on."""
    return hashlib.sha256(data).hexdigest()


def address_problem(address: str) -> str | None:
    """Why ``address`` cannot be mailed (None when it looks deliverable); checked before any SMTP."""
    if not _ADDRESS.match(address or ""):
        return f"{address!r} is not an email address this tool can send to (expected ASCII name@domain)"
    return None


def subject(round_title: str, focus: str | None, lang: str) -> str:
    words = _words(lang)
    if focus:
        return words["subject"].format(round_title=round_title, focus=focus)
    return words["subject_nofocus"].format(round_title=round_title)


def bodies(recipient: Recipient, *, title: str, round_title: str, filename: str, headlines: list[str],
           notes: list[str] = (), source: dict | None = None) -> tuple[str, str]:
    """The plain-text and HTML bodies, the same words in both; ``source`` is cited when no note does."""
    words = _words(recipient.lang)
    greeting = (words["greeting"].format(name=recipient.name) if recipient.name
                else words["greeting_noname"])
    intro = words["intro"].format(title=title, round_title=round_title, filename=filename)
    source_line = ""
    if not notes and source and source.get("url"):
        source_line = words["source"].format(url=source["url"], retrieved=source.get("retrieved") or "")
    sections = [(words["headlines"], list(headlines)), (words["notes"], list(notes))]
    text = [greeting, "", intro, ""]
    e = html.escape
    parts = [f"<p>{e(greeting)}</p>", f"<p>{e(intro)}</p>"]
    for (heading, lines), bullet in zip(sections, ("- ", "")):
        if lines:
            text += [heading, *[f"{bullet}{line}" for line in lines], ""]
            parts.append(f"<p>{e(heading)}</p>")
            parts.append("<ul>" + "".join(f"<li>{e(line)}</li>" for line in lines) + "</ul>")
    if source_line:
        text += [source_line, ""]
        parts.append(f"<p>{e(source_line)}</p>")
    markup = (f'<!DOCTYPE html>\n<html lang="{e(recipient.lang)}"><head><meta charset="utf-8"></head>'
              f"<body>\n{chr(10).join(parts)}\n</body></html>\n")
    return "\n".join(text), markup


def parse_address(text: str) -> Address:
    """``"Name <a@b>"`` or ``a@b`` as an Address (which refuses line breaks: no header injection)."""
    from email.utils import parseaddr

    name, addr = parseaddr(text)
    return Address(display_name=name, addr_spec=addr or text)


def build_message(*, sender: str, recipient: Recipient, subject_line: str, text: str, markup: str,
                  attachments, now: datetime) -> EmailMessage:
    """One message to one recipient; its Message-ID stays the same across retries of this message."""
    from_address = parse_address(sender)
    message = EmailMessage(policy=policy.SMTP)
    message["From"] = from_address
    message["To"] = Address(display_name=recipient.name, addr_spec=recipient.email)
    message["Subject"] = subject_line
    message["Date"] = format_datetime(now)
    message["Message-ID"] = make_msgid(domain=from_address.domain or "localhost")
    message.set_content(text, charset="utf-8")
    message.add_alternative(markup, subtype="html", charset="utf-8")
    for item in attachments:  # mail.attachments.Attachment: the report's PDF, or the role's deliverables
        maintype, subtype = item.mime
        charset = {"charset": "utf-8"} if maintype == "text" else {}  # a format writes its text as UTF-8
        message.add_attachment(item.data, maintype=maintype, subtype=subtype, filename=item.filename, params=charset)
    message["Content-Language"] = recipient.lang  # after set_content, which drops Content-* headers
    return message


def envelope_sender(sender: str) -> str:
    """The bare address of the From header, used as the SMTP envelope sender."""
    return parse_address(sender).addr_spec


def to_bytes(message: EmailMessage) -> bytes:
    """The wire form (CRLF, encoded headers): what is sent and what ``--dry-run`` writes as .eml."""
    return message.as_bytes(policy=policy.SMTP)
