"""What a recipient's message carries: the deliverables its list names (``Recipient.deliverables``:
the PDF report, the slides, the brief, the chart cards, the workbook, ...) of the report built for it,
in its language, each file checked as the PDF is (there, complete, not older than its inputs) before
the first message goes, and their total held to the configured size.

The files are those the build recorded (``assemble.build.deliverables``: ``deliverables.json``); a
deliverable the build did not make is refused with the change that makes it.
"""

from __future__ import annotations

import hashlib
from dataclasses import dataclass
from pathlib import Path

from mlperf_report.assemble import formats
from mlperf_report.core.errors import UserError

#: Attachments of one message at most, in MB (before the base64 that adds a third): under the 25 MB
#: most mail servers take. ``mail: max_attachments_mb:`` changes it.
DEFAULT_LIMIT_MB = 18

@dataclass(frozen=True)
class Attachment:
    path: Path
    data: bytes
    filename: str     # as the recipient sees it: mlperf-training-v4.1-slides.en.pptx
    deliverable: str = formats.PRINTED  # the format that made it: it names the MIME type

    @property
    def mime(self) -> tuple[str, str]:
        maintype, _, subtype = formats.mime_of(self.deliverable, self.path).partition("/")
        return maintype, subtype


def files_for(folder: Path, lang: str, languages: list[str], deliverable: str) -> list[Path]:
    """The files of ``deliverable`` in ``lang`` of the report in ``folder`` (a per-report format's,
    the workbook's, whichever language it was made with); the PDF as ``report_check`` finds it."""
    from mlperf_report.assemble.build import deliverables
    from mlperf_report.mail import report_check

    formats.get(deliverable)  # a name no format has: refused with the names that exist
    if deliverable == formats.PRINTED:
        return [report_check.report_pdf(folder, lang, languages)]
    made = deliverables(folder)
    files = made.get(lang, {}).get(deliverable)
    if files is None:  # made once per report, with the first language
        files = next((by_format[deliverable] for by_format in made.values() if deliverable in by_format), None)
    if not files:
        raise UserError(f"{folder}: no {deliverable} was built in {lang}; add `{deliverable}` to `deliverables:` in "
                        "data/report.yaml and build the report again")
    return [Path(folder) / f for f in files]


def checked(path: Path, inputs, round_id: str) -> bytes:
    """A file's bytes, refused as a report PDF is when it is missing, empty or older than its inputs."""
    from mlperf_report.mail import report_check

    if Path(path).suffix.lower() == ".pdf":  # a PDF is checked to be complete, whichever format made it
        return report_check.checked_pdf(path, inputs, round_id)
    fix = f"run `python build.py report --round {round_id}` first"
    if not path.is_file() or not path.stat().st_size:
        raise UserError(f"{path} is missing or empty; {fix}")
    built = path.stat().st_mtime
    newer = [p for p in inputs if Path(p).stat().st_mtime > built]
    if newer:
        raise UserError(f"{path} is older than its input {max(newer, key=lambda p: Path(p).stat().st_mtime)}; {fix}")
    return path.read_bytes()


def attachments(folder: Path, lang: str, languages: list[str], wanted, inputs, round_id: str) -> tuple[Attachment, ...]:
    """Every file of the ``wanted`` deliverables, checked, named for the recipient."""
    out = []
    for deliverable in wanted:
        for path in files_for(Path(folder), lang, languages, deliverable):
            name = formats.own_name(deliverable, path, lang)  # report.pdf stands in for the first language's
            out.append(Attachment(path, checked(path, inputs, round_id), f"mlperf-{round_id}-{name}", deliverable))
    return tuple(out)


def checksum(files: tuple[Attachment, ...]) -> str:
    """One SHA-256 of a message's attachments (names and bytes): the send log's key, so a rebuilt
    deliverable is a new message and an unchanged set is never sent twice."""
    if len(files) == 1:  # as before there were several: the PDF's own checksum
        return hashlib.sha256(files[0].data).hexdigest()
    digest = hashlib.sha256()
    for item in files:
        digest.update(item.filename.encode() + b"\0" + hashlib.sha256(item.data).digest())
    return digest.hexdigest()


def within_limit(files: tuple[Attachment, ...], limit_mb: float, who: str) -> None:
    total = sum(len(f.data) for f in files)
    if total > limit_mb * 1024 * 1024:
        parts = ", ".join(f"{f.filename} {len(f.data) / 1e6:.1f} MB" for f in files)
        raise UserError(f"{who}: the attachments come to {total / 1e6:.1f} MB, over the {limit_mb:g} MB a message may "
                        f"carry ({parts}); give the list fewer deliverables, or raise `mail: max_attachments_mb:`")
