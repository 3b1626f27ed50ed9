"""The price catalogue (``data/prices.yaml``): display names and list prices of systems, with sources.

Results folder names (``dgxa100_ngc21.05_mxnet``) are not names people read, and a performance-per-dollar
claim is only as good as the price behind it, so every price must say where it comes from and when;
one without a source is refused. Systems are matched by exact ``system_id`` first, then by glob
``pattern`` in file order; the first matching entry wins.
"""

from __future__ import annotations

import datetime as _dt
import fnmatch
import re
from dataclasses import dataclass
from pathlib import Path
from typing import Any, Mapping

from mlperf_report.core import languages, paths
from mlperf_report.core.errors import InputError
from mlperf_report.core.yaml_files import read_yaml

_DATE = re.compile(r"^\d{4}-\d{2}-\d{2}$")
_CURRENCY = re.compile(r"^[A-Z]{3}$")


@dataclass(frozen=True)
class Price:
    amount: float
    currency: str
    source: str
    date: str
    #: the source in other report languages (``{"zh-Hant": "..."}``), when the catalogue gives them
    source_by_lang: tuple[tuple[str, str], ...] = ()

    def as_dict(self) -> dict:
        """The ``PRICE`` object of the figures.json contract."""
        amount = int(self.amount) if float(self.amount).is_integer() else self.amount
        price = {"amount": amount, "currency": self.currency, "source": self.source, "date": self.date}
        if self.source_by_lang:
            price["source_by_lang"] = dict(self.source_by_lang)
        return price


@dataclass(frozen=True)
class Entry:
    """One catalogue entry: which systems it matches, what to call them, what they cost."""

    system_id: str | None = None
    pattern: str | None = None
    submitter: str | None = None
    rounds: tuple[str, ...] = ()
    display_name: str | None = None
    price: Price | None = None
    cpus_per_server: int | None = None  # host CPUs per server, to count servers from host processors

    def matches(self, submitter: str, system_id: str, round_id: str | None) -> bool:
        if self.submitter and self.submitter.lower() != str(submitter).lower():
            return False
        if self.rounds and round_id not in self.rounds:
            return False
        if self.system_id is not None:
            return self.system_id.lower() == str(system_id).lower()
        return fnmatch.fnmatchcase(str(system_id).lower(), self.pattern.lower())


@dataclass(frozen=True)
class Catalogue:
    entries: tuple[Entry, ...] = ()

    def lookup(self, submitter: str, system_id: str, round_id: str | None = None) -> Entry | None:
        """The entry for a system: an exact ``system_id`` entry beats any pattern."""
        candidates = [e for e in self.entries if e.matches(submitter, system_id, round_id)]
        exact = [e for e in candidates if e.system_id is not None]
        return (exact or candidates or [None])[0]

    def price(self, submitter: str, system_id: str, round_id: str | None = None) -> Price | None:
        entry = self.lookup(submitter, system_id, round_id)
        return entry.price if entry else None

    def display_name(self, row: Mapping[str, Any], round_id: str | None = None) -> str:
        """Readable name of a results row: catalogue name (``{field}`` filled from the row), else the
        systems JSON ``system_name``, else the folder name."""
        entry = self.lookup(row.get("submitter", ""), row.get("system_id", ""), round_id)
        if entry and entry.display_name:
            fields = {k: _plain(v) for k, v in row.items()}
            try:
                return entry.display_name.format_map(fields)
            except (KeyError, ValueError, IndexError):
                return entry.display_name
        name = row.get("system_name")
        return str(name) if isinstance(name, str) and name.strip() else str(row.get("system_id", ""))


def _plain(value: Any) -> Any:
    """Whole floats (``8.0`` from a CSV) print as ``8`` in display names."""
    if isinstance(value, float) and value.is_integer():
        return int(value)
    return value


def load_prices(path: Path | str = paths.PRICES) -> Catalogue:
    """Read and validate a price catalogue file."""
    path = Path(path)
    raw = read_yaml(path, what="price catalogue", fix="pass --prices or restore data/prices.yaml")
    return parse_prices(raw, where=str(path))


def parse_prices(raw: Any, *, where: str = "prices.yaml") -> Catalogue:
    """Validate an already-parsed catalogue: ``{systems: [entry, ...]}``."""
    if not isinstance(raw, dict) or not isinstance(raw.get("systems", []), list):
        raise InputError(f"{where}: expected 'systems:' followed by a list of entries")
    unknown = sorted(set(raw) - {"systems"})
    if unknown:
        raise InputError(f"{where}: unknown key(s) {', '.join(unknown)}; the file holds one key, systems")
    return Catalogue(tuple(_entry(item, f"{where}: systems[{i}]") for i, item in enumerate(raw.get("systems", []))))


_ENTRY_KEYS = {"system_id", "pattern", "submitter", "rounds", "display_name", "price", "cpus_per_server"}


def _entry(item: Any, where: str) -> Entry:
    if not isinstance(item, dict):
        raise InputError(f"{where}: expected a mapping with system_id or pattern, got {item!r}")
    unknown = sorted(set(item) - _ENTRY_KEYS)
    if unknown:
        raise InputError(f"{where}: unknown key(s) {', '.join(unknown)}; known: {', '.join(sorted(_ENTRY_KEYS))}")
    if ("system_id" in item) == ("pattern" in item):
        raise InputError(f"{where}: give exactly one of system_id (exact folder name) or pattern (glob such as 'ipu-pod16*')")
    rounds = item.get("rounds") or ()
    if isinstance(rounds, str):
        rounds = (rounds,)
    name = item.get("system_id") or item.get("pattern")
    if not isinstance(name, str) or not name.strip():
        raise InputError(f"{where}: system_id / pattern must be a non-empty text")
    cpus = item.get("cpus_per_server")
    if cpus is not None and (isinstance(cpus, bool) or not isinstance(cpus, int) or cpus <= 0):
        raise InputError(f"{where} ({name}): cpus_per_server must be a whole number of host CPUs per server, got {cpus!r}")
    return Entry(
        system_id=item.get("system_id"),
        pattern=item.get("pattern"),
        submitter=item.get("submitter"),
        rounds=tuple(str(r) for r in rounds),
        display_name=item.get("display_name"),
        price=_price(item["price"], f"{where} ({name}): price") if item.get("price") is not None else None,
        cpus_per_server=cpus,
    )


def _price(raw: Any, where: str) -> Price:
    if not isinstance(raw, dict):
        raise InputError(f"{where}: expected a mapping {{amount, currency, source, date}}, got {raw!r}")
    source, by_lang = _source(raw.get("source"), where)
    if not source:
        raise InputError(f"{where}: a price needs a source (who states it, where), e.g. source: \"vendor list price, press release 2021-06-30\"; prices without a source are refused")
    amount = raw.get("amount")
    if isinstance(amount, bool) or not isinstance(amount, (int, float)) or amount <= 0:
        raise InputError(f"{where}: amount must be a positive number (no currency signs or commas), got {amount!r}")
    currency = raw.get("currency", "USD")
    if not isinstance(currency, str) or not _CURRENCY.match(currency):
        raise InputError(f"{where}: currency must be an ISO 4217 code such as USD, got {currency!r}")
    date = raw.get("date")
    if isinstance(date, (_dt.date, _dt.datetime)):
        date = date.strftime("%Y-%m-%d")
    if not isinstance(date, str) or not _DATE.match(date):
        raise InputError(f"{where}: date must be the day the price was stated, as YYYY-MM-DD, got {date!r}")
    return Price(amount=amount, currency=currency, source=source, date=date, source_by_lang=by_lang)


def _source(raw: Any, where: str) -> tuple[str, tuple[tuple[str, str], ...]]:
    """A source as one text (every language quotes it as is) or per language (``{en: ..., zh-Hant: ...}``,
    English required: it is the text of record)."""
    if isinstance(raw, str):
        return raw.strip(), ()
    if not isinstance(raw, dict):
        return "", ()
    texts = {str(k): v.strip() for k, v in raw.items() if isinstance(v, str) and v.strip()}
    unknown = sorted(set(texts) - set(languages.available()))
    if unknown:
        raise InputError(f"{where}: source has unknown language(s) {', '.join(unknown)}; "
                         f"use {', '.join(languages.available())}")
    english = texts.pop(languages.SOURCE, "")
    return english, tuple(sorted(texts.items())) if english else ()
