"""The README's picture of the report: its first highlights page and its first benchmark page (a chart),
rendered from the built default report's PDF into docs/ (`make picture`).

Pages are found from the PDF's outline, not by number, so a longer cover or contents does not shift
them: the first entry after the title is the highlights, the first after the summary a benchmark.
usage: tools/readme_picture.py REPORT.pdf OUT_DIR
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pypdf

DPI = 60  # a page about 500 px wide: readable in a README, ~100 KB


def pages(pdf: Path) -> dict[str, int]:
    """1-based page numbers of the highlights and of the first benchmark section."""
    reader = pypdf.PdfReader(pdf)
    entries = [reader.get_destination_page_number(o) + 1 for o in reader.outline if not isinstance(o, list)]
    if len(entries) < 4:
        raise SystemExit(f"{pdf}: expected title, highlights, summary and a benchmark in its outline")
    return {"report-highlights": entries[1], "report-chart": entries[3]}


def render(pdf: Path, out_dir: Path) -> list[Path]:
    out = []
    for name, page in pages(pdf).items():
        target = out_dir / name
        subprocess.run(["pdftoppm", "-png", "-r", str(DPI), "-f", str(page), "-l", str(page), "-singlefile",
                        str(pdf), str(target)], check=True)
        out.append(target.with_suffix(".png"))
    return out


if __name__ == "__main__":
    if len(sys.argv) != 3:
        raise SystemExit(__doc__)
    for path in render(Path(sys.argv[1]), Path(sys.argv[2])):
        print(f"picture: {path} ({path.stat().st_size // 1024} KB)")
