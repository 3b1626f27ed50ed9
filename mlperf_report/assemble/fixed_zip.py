"""Zip-based files (``.xlsx``, ``.pptx``) made byte-stable: their libraries stamp the time of saving
on every zip member, and openpyxl on the document's "modified" property, so the same content gave
different bytes on every build (and a cache or a send log could never tell that nothing changed)."""

from __future__ import annotations

import io
import re
import zipfile

_EPOCH = (1980, 1, 1, 0, 0, 0)
_MODIFIED = re.compile(rb"(<dcterms:modified[^>]*>)[^<]*")


def fixed_times(data: bytes, edits: dict | None = None) -> bytes:
    """The same zip with every member dated 1980-01-01 and the core properties' modification date
    fixed, members in their order, compressed alike; ``edits`` (member name -> function of its
    bytes) change members on the way."""
    source = zipfile.ZipFile(io.BytesIO(data))
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w", zipfile.ZIP_DEFLATED) as target:
        for info in source.infolist():
            fixed = zipfile.ZipInfo(info.filename, date_time=_EPOCH)
            fixed.compress_type = zipfile.ZIP_DEFLATED
            body = source.read(info.filename)
            if info.filename == "docProps/core.xml":
                body = _MODIFIED.sub(rb"\g<1>2000-01-01T00:00:00Z", body)
            if edits and info.filename in edits:
                body = edits[info.filename](body)
            target.writestr(fixed, body)
    return out.getvalue()
