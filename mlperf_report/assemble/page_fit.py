"""How many of a page's optional parts fit, guessed from one layout: what ``pdf_print.shortest_that_fits``
tries first, so a brief too long for its page is laid out three times, not four (each WeasyPrint
layout of it is a tenth of a second of CPU).

A page marks each part it may leave out with ``data-fit="k"`` (``templates/brief.html.j2``: the k-th
claim's bullet and its note); parts are left out from the highest ``k`` down. Leaving a part out
takes its margin box's height off the page's flow (margins between the parts do not collapse into
one another: the brief's bullets and notes have bottom margins only), so one layout of every part
gives the height of the flow with any first ``n`` of them.

It reads the layout's page boxes (``Page._page_box``, a private name of WeasyPrint's), so only on the
WeasyPrint versions it was checked against (:data:`CHECKED`); on any other there is no guess and
``shortest_that_fits`` halves, as it did before (one layout more, the same brief)."""

from __future__ import annotations

#: WeasyPrint versions whose page boxes this was checked against (the guesses' tests).
CHECKED = ("70.0",)


def part_heights(document) -> tuple[float, dict[int, float]]:
    """``document``'s (a WeasyPrint layout) flow height summed over its pages, and each marked part's
    height (points; a part split over two pages, both pieces)."""
    flow, parts = 0.0, {}
    for page in document.pages:
        root = page._page_box.children[0]  # the html element's box on this page
        flow += root.margin_height()
        _collect(root, parts)
    return flow, parts


def _collect(box, parts: dict[int, float]) -> None:
    element = getattr(box, "element", None)  # a box's own boxes (its lines) name its element too
    mark = element.get("data-fit") if element is not None else None
    if mark is not None and mark.isdigit():
        parts[int(mark)] = parts.get(int(mark), 0.0) + box.margin_height()
        return  # its own boxes are in its height
    for child in getattr(box, "children", ()):
        _collect(child, parts)


def page_height(document) -> float:
    """The height of the first page's content area, in points."""
    return document.pages[0]._page_box.height


def guess(document, most: int, pages: int = 1) -> int | None:
    """From the layout of all ``most`` parts: the largest ``n`` (1 ≤ n < ``most``) whose flow should
    fit in ``pages`` pages; None when the page marks no part. A guess: the flow of a layout over
    several pages counts each page's room down to the break, within a few lines of what it holds."""
    import weasyprint

    if weasyprint.__version__ not in CHECKED:
        return None
    flow, parts = part_heights(document)
    if not parts:
        return None
    room = pages * page_height(document)
    return max((n for n in range(1, most) if flow - sum(h for k, h in parts.items() if k > n) <= room), default=1)
