"""The ``mail:`` section of data/report.yaml: sender, SMTP defaults and recipient lists.

Only non-secret settings live there; credentials come from the environment (see ``smtp_send``).
"""

from __future__ import annotations

from dataclasses import dataclass

from mlperf_report.assemble import formats
from mlperf_report.core.config import Focus, focus_of
from mlperf_report.core.errors import InputError, UserError


#: What a member gets when its list names nothing: the printed report, as always.
DEFAULT_DELIVERABLES = (formats.PRINTED,)
#: Words a list may use for a format (``deliverables:``): "report" is the printed report.
ALIASES = formats.ALIASES


@dataclass(frozen=True)
class Recipient:
    """One stakeholder: display name (may be empty), address, the language of the report they get, the
    focus of that report (None: the round's default report, as ``build.py report`` builds it), and the
    deliverables attached for them (format names, as ``assemble.formats`` knows them)."""

    name: str
    email: str
    lang: str
    focus: Focus | None = None
    deliverables: tuple[str, ...] = DEFAULT_DELIVERABLES


def mail_section(mail: dict) -> dict:
    """``mail:`` of the configuration (``ReportConfig.mail``), checked to name a sender."""
    mail = mail or {}
    if not isinstance(mail, dict) or not mail.get("sender"):
        raise InputError("report configuration has no `mail: sender:`; add the From address, e.g. "
                         "`sender: \"MLPerf report <mlperf-report@example.com>\"`")
    return mail


def _focus(entry: dict, inherited: Focus | None) -> Focus | None:
    """``focus: NAME`` (a submitter, or ``none``) or ``focus_accelerator: PATTERN`` of a member or a
    group; neither: the group's, else the round's default report."""
    if entry.get("focus_accelerator") or entry.get("focus"):
        return focus_of(str(entry.get("focus") or ""), str(entry.get("focus_accelerator") or ""))
    return inherited


def _deliverables(entry: dict, roles: dict, inherited: tuple[str, ...], where: str) -> tuple[str, ...]:
    """``deliverables: [brief, slides]`` or ``role: executives`` (one of ``mail: roles:``) of a member or
    a group; neither: the group's, else the PDF report."""
    if entry.get("deliverables") is not None and entry.get("role"):
        raise InputError(f"{where}: give `deliverables:` or `role:`, not both")
    if entry.get("role"):
        role = str(entry["role"])
        if role not in roles:
            raise InputError(f"{where}: no role {role!r} in `mail: roles:` (roles: {', '.join(sorted(roles)) or 'none'})")
        names = roles[role]
    elif entry.get("deliverables") is not None:
        names = entry["deliverables"]
    else:
        return inherited
    if not isinstance(names, list) or not names or not all(isinstance(n, str) and n.strip() for n in names):
        raise InputError(f"{where}: deliverables must be a list of format names "
                         f"({', '.join([*ALIASES, *formats.names()])}), "
                         f"got {names!r}")
    return tuple(dict.fromkeys(ALIASES.get(n.strip(), n.strip()) for n in names))  # checked when sent


def _members(list_name: str, group) -> tuple[list, Focus | None, str | None]:
    """A list is its members, or ``{focus: ..., suite: ..., members: [...]}`` for a group with a focus."""
    if isinstance(group, dict):
        if not isinstance(group.get("members"), list):
            raise InputError(f"mail list {list_name!r}: a group is {{focus: ..., suite: ..., members: [...]}}, "
                             f"got {group!r}")
        return group["members"], _focus(group, None), (str(group["suite"]) if group.get("suite") else None)
    return group or [], None, None


def lists(mail: dict, suite: str | None = None) -> dict[str, list[Recipient]]:
    """Every configured list, each member checked to have an address and a language; with ``suite``, the
    members (or groups) that name another suite are left out."""
    result = {}
    roles = mail.get("roles") or {}
    if not isinstance(roles, dict):
        raise InputError(f"mail: roles must map a role to its deliverables (executives: [brief, slides]), got {roles!r}")
    for list_name, group in (mail.get("lists") or {}).items():
        members, group_focus, group_suite = _members(str(list_name), group)
        wanted = _deliverables(group, roles, DEFAULT_DELIVERABLES, f"mail list {list_name!r}") \
            if isinstance(group, dict) else DEFAULT_DELIVERABLES
        recipients = []
        for member in members:
            if not isinstance(member, dict) or not member.get("email"):
                raise InputError(f"mail list {list_name!r} has a member without `email`: {member!r}")
            if suite and (member.get("suite") or group_suite or suite) != suite:
                continue
            recipient = Recipient(str(member.get("name") or ""), str(member["email"]).strip(),
                                  str(member.get("lang") or ""), _focus(member, group_focus),
                                  _deliverables(member, roles, wanted, f"mail list {list_name!r}"))
            if any(c in "\r\n" for c in recipient.name + recipient.email):
                raise InputError(f"mail list {list_name!r}: {recipient.email!r} has a line break in its "
                                 "name or address; remove it")
            recipients.append(recipient)
        result[str(list_name)] = recipients
    return result


def select_recipients(mail: dict, langs: list[str], to: list[str] | None = None,
                      list_name: str | None = None, lang: str | None = None,
                      suite: str | None = None) -> list[Recipient]:
    """Who gets a report this run.

    ``to``: these addresses (named and in their language when a list knows them, else ``lang`` or the
    first language). Otherwise the members of ``list_name`` (default: ``default_list``), keeping only
    those whose language is ``lang`` when it is given. Duplicates are dropped; unknown languages refused.
    """
    known = lists(mail, suite)
    if lang is not None and lang not in langs:
        raise UserError(f"--lang {lang}: the report is built in {', '.join(langs)} only")
    if to:
        by_address = {r.email.lower(): r for members in known.values() for r in members}
        chosen = []
        for address in to:
            member = by_address.get(address.lower())
            member_lang = member.lang if member and member.lang else None
            chosen.append(Recipient(member.name if member else "", address, lang or member_lang or langs[0],
                                    member.focus if member else None,
                                    member.deliverables if member else DEFAULT_DELIVERABLES))
    else:
        name = list_name or mail.get("default_list")
        if not name:
            raise UserError("no recipients: give --to ADDRESS, --list NAME, or set `mail: default_list:`")
        if name not in known:
            raise UserError(f"no mail list {name!r}; configured lists: {', '.join(sorted(known)) or 'none'}")
        chosen = [Recipient(r.name, r.email, r.lang or langs[0], r.focus, r.deliverables) for r in known[name]]
        if lang is not None:
            chosen = [r for r in chosen if r.lang == lang]
    unique, seen = [], set()
    for recipient in chosen:
        if recipient.lang not in langs:
            raise UserError(f"{recipient.email} wants the report in {recipient.lang!r}, but it is built in "
                            f"{', '.join(langs)} only; fix `lang:` in data/report.yaml or add the language")
        key = (recipient.email.lower(), recipient.focus)
        if key not in seen:
            seen.add(key)
            unique.append(recipient)
    return unique
