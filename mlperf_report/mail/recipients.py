"""The ``mail:`` section of data/report.yaml: sender, SMTP defaults and recipient lists.

Only non-secret settings live there; credentials come from the environment (see ``smtp_send``).
"""

from __future__ import annotations

from dataclasses import dataclass

from mlperf_report.core.errors import InputError, UserError


@dataclass(frozen=True)
class Recipient:
    """One stakeholder: display name (may be empty), address, and the language of the report they get."""

    name: str
    email: str
    lang: str


def mail_section(mail: dict) -> dict:
    """``mail:`` of the configuration (``ReportConfig.mail``), checked to name a sender."""
    mail = mail or {}
    if not isinstance(mail, dict) or not mail.get("sender"):
        raise InputError("report configuration has no `mail: sender:`; add the From address, e.g. "
                         "`sender: \"MLPerf report <mlperf-report@example.com>\"`")
    return mail


def lists(mail: dict) -> dict[str, list[Recipient]]:
    """Every configured list, each member checked to have an address and a language."""
    result = {}
    for list_name, members in (mail.get("lists") or {}).items():
        recipients = []
        for member in members or []:
            if not isinstance(member, dict) or not member.get("email"):
                raise InputError(f"mail list {list_name!r} has a member without `email`: {member!r}")
            recipient = Recipient(str(member.get("name") or ""), str(member["email"]).strip(),
                                  str(member.get("lang") or ""))
            if any(c in "\r\n" for c in recipient.name + recipient.email):
                raise InputError(f"mail list {list_name!r}: {recipient.email!r} has a line break in its "
                                 "name or address; remove it")
            recipients.append(recipient)
        result[str(list_name)] = recipients
    return result


def select_recipients(mail: dict, langs: list[str], to: list[str] | None = None,
                      list_name: str | None = None, lang: str | None = None) -> list[Recipient]:
    """Who gets a report this run.

    ``to``: these addresses (named and in their language when a list knows them, else ``lang`` or the
    first language). Otherwise the members of ``list_name`` (default: ``default_list``), keeping only
    those whose language is ``lang`` when it is given. Duplicates are dropped; unknown languages refused.
    """
    known = lists(mail)
    if lang is not None and lang not in langs:
        raise UserError(f"--lang {lang}: the report is built in {', '.join(langs)} only")
    if to:
        by_address = {r.email.lower(): r for members in known.values() for r in members}
        chosen = []
        for address in to:
            member = by_address.get(address.lower())
            member_lang = member.lang if member and member.lang else None
            chosen.append(Recipient(member.name if member else "", address,
                                    lang or member_lang or langs[0]))
    else:
        name = list_name or mail.get("default_list")
        if not name:
            raise UserError("no recipients: give --to ADDRESS, --list NAME, or set `mail: default_list:`")
        if name not in known:
            raise UserError(f"no mail list {name!r}; configured lists: {', '.join(sorted(known)) or 'none'}")
        chosen = [Recipient(r.name, r.email, r.lang or langs[0]) for r in known[name]]
        if lang is not None:
            chosen = [r for r in chosen if r.lang == lang]
    unique, seen = [], set()
    for recipient in chosen:
        if recipient.lang not in langs:
            raise UserError(f"{recipient.email} wants the report in {recipient.lang!r}, but it is built in "
                            f"{', '.join(langs)} only; fix `lang:` in data/report.yaml or add the language")
        if recipient.email.lower() not in seen:
            seen.add(recipient.email.lower())
            unique.append(recipient)
    return unique
