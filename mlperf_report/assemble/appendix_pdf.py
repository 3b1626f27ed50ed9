"""The report's appendix (the closing exhibits) printed once and joined to each report's own pages.

The exhibits do not depend on the focus: in a batch every focus's report carries the same pages of
results tables (18 of a Training v4.1 report's 46), and WeasyPrint laid them out and drew them again
for each report, a third of its printing time. They are printed as a document of their own instead,
numbered A-1, A-2, … (the report's own pages keep 1 / N), kept in the assembly cache by their
content, and joined after the report's own pages with pypdf: both outlines, page labels that match
the printed numbers, and the contents entry linking to the appendix.

A printed report links its contents entry of an appendix section to a marker anchor
(``appendix-<section id>``) at the end of its own pages, so WeasyPrint keeps the link; the join
points that link at the section's page in the appendix and drops the marker.
"""

from __future__ import annotations

import io

#: What an appendix page number starts with ("A-3"), in print and in the PDF's page labels.
PAGE_PREFIX = "A-"
#: Marker anchors in the report's own pages stand for appendix sections under this prefix.
MARKER_PREFIX = "appendix-"


def section_pages(appendix: bytes) -> dict[str, str]:
    """Section id -> its page number as printed ("A-1"), from the appendix PDF's named destinations
    (WeasyPrint names one after every element id)."""
    from pypdf import PdfReader

    reader = PdfReader(io.BytesIO(appendix))
    return {str(name): f"{PAGE_PREFIX}{reader.get_destination_page_number(dest) + 1}"
            for name, dest in sorted(reader.named_destinations.items()) if str(name).startswith("sec-")}


def join(report: bytes, appendix: bytes) -> bytes:
    """The report's pages, then the appendix's; the same inputs give the same bytes."""
    from pypdf import PdfReader, PdfWriter
    from pypdf.generic import ArrayObject, NameObject, NullObject, NumberObject, TextStringObject

    own, extra = PdfReader(io.BytesIO(report)), PdfReader(io.BytesIO(appendix))
    targets = {name: (extra.get_destination_page_number(dest), dest) for name, dest in extra.named_destinations.items()}
    writer = PdfWriter()
    writer.append(own)
    first = len(writer.pages)
    writer.append(extra)
    for page in writer.pages[:first]:
        for annotation in page.get("/Annots") or []:
            link = annotation.get_object()
            name = str(link.get("/Dest", ""))
            if name.startswith(MARKER_PREFIX) and name[len(MARKER_PREFIX):] in targets:
                index, dest = targets[name[len(MARKER_PREFIX):]]
                top = dest.top if dest.top is not None else NullObject()
                link[NameObject("/Dest")] = ArrayObject([writer.pages[first + index].indirect_reference,
                                                         NameObject("/XYZ"), NullObject(), top, NumberObject(0)])
    _drop_markers(writer)
    writer.set_page_label(0, first - 1, style="/D")
    writer.set_page_label(first, len(writer.pages) - 1, style="/D", prefix=PAGE_PREFIX)
    if own.metadata:
        writer.add_metadata({key: TextStringObject(str(value)) for key, value in own.metadata.items()})
    out = io.BytesIO()
    writer.write(out)
    return out.getvalue()


def _drop_markers(writer) -> None:
    """Remove the marker anchors from the joined PDF's named destinations (a flat name tree, which
    is what pypdf writes when it merges)."""
    names = writer.root_object.get("/Names")
    dests = names.get_object().get("/Dests") if names else None
    array = dests.get_object().get("/Names") if dests else None
    if array is None:
        return
    kept = []
    for i in range(0, len(array) - 1, 2):
        if not str(array[i]).startswith(MARKER_PREFIX):
            kept += [array[i], array[i + 1]]
    array.clear()
    array.extend(kept)
