"""The documentation holds together: a short README that starts with the two commands, links that lead
somewhere, and ``build.py --help`` pointing at the reference pages."""

from __future__ import annotations

import fnmatch
import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[1]
README = ROOT / "README.md"
MAX_README_LINES = 120

#: Pictures of a built report, made by `make picture` outside this check; the only links allowed to be
#: missing (a checkout may not have made them yet). Every other relative link must resolve.
MADE_ELSEWHERE = "docs/report-*.png"

_FENCE = re.compile(r"^(```|~~~).*?^\1[ \t]*$", re.M | re.S)
_CODE_SPAN = re.compile(r"(`+)(?!`).+?(?<!`)\1(?!`)", re.S)
_INLINE_LINK = re.compile(r"!?\[(?:[^\[\]]|\[[^\]]*\])*\]\(\s*<?([^)\s>]+)>?(?:\s+\"[^\"]*\")?\s*\)")
_REFERENCE_LINK = re.compile(r"^[ ]{0,3}\[[^\]]+\]:\s*<?(\S+?)>?(?:\s|$)", re.M)
_HEADING = re.compile(r"^#{1,6}[ \t]+(.+?)[ \t#]*$", re.M)


def _pages() -> list[Path]:
    return [README, ROOT / "ARCHITECTURE.md", *sorted((ROOT / "docs").glob("*.md"))]


def _prose(text: str) -> str:
    """The text outside fenced code blocks and code spans, where a link is a link."""
    return _CODE_SPAN.sub("", _FENCE.sub("", text))


def links(text: str) -> list[str]:
    """Every link target (Markdown links, images and reference definitions) outside code."""
    prose = _prose(text)
    return _INLINE_LINK.findall(prose) + _REFERENCE_LINK.findall(prose)


def anchor(heading: str) -> str:
    """GitHub's id for a heading: lower case, code marks and punctuation dropped, spaces to hyphens."""
    text = re.sub(r"\[([^\]]*)\]\([^)]*\)", r"\1", heading).lower()
    return re.sub(r"[^\w\- ]", "", text).replace(" ", "-")


def anchors(path: Path) -> set[str]:
    return {anchor(h) for h in _HEADING.findall(_FENCE.sub("", path.read_text(encoding="utf-8")))}


def broken_links(page: Path) -> list[str]:
    """The relative links of ``page`` that lead to no file (or to no heading of a Markdown file)."""
    broken = []
    for target in links(page.read_text(encoding="utf-8")):
        if re.match(r"^[a-z][a-z0-9+.-]*:", target, re.I):  # https:, mailto: ...: not ours to check
            continue
        file_part, _, fragment = target.partition("#")
        resolved = (page.parent / file_part).resolve() if file_part else page
        if not resolved.exists():
            relative = resolved.relative_to(ROOT).as_posix() if resolved.is_relative_to(ROOT) else str(resolved)
            if not fnmatch.fnmatchcase(relative, MADE_ELSEWHERE):
                broken.append(f"{target} (no file {relative})")
            continue
        if fragment and resolved.suffix == ".md" and fragment not in anchors(resolved):
            broken.append(f"{target} (no heading #{fragment} in {resolved.name})")
    return broken


def test_readme_is_short():
    lines = README.read_text(encoding="utf-8").splitlines()
    assert len(lines) <= MAX_README_LINES, f"README.md has {len(lines)} lines; keep it to {MAX_README_LINES} (details in docs/)"


def test_readme_starts_with_make_report_and_make_test():
    first = _FENCE.search(README.read_text(encoding="utf-8"))
    assert first, "README.md has no command block"
    assert "make report" in first.group(0) and "make test" in first.group(0), (
        f"README.md's first command block must hold `make report` and `make test`, got:\n{first.group(0)}")


@pytest.mark.parametrize("page", _pages(), ids=lambda p: p.relative_to(ROOT).as_posix())
def test_relative_links_resolve(page):
    assert not broken_links(page), f"{page.relative_to(ROOT)}: broken links: {broken_links(page)}"


def test_the_link_check_sees_a_broken_link(tmp_path):
    page = tmp_path / "page.md"
    page.write_text("# Title\n\n[gone](missing.md) ![pic](pic.png) [ok](#title) [bad](#nowhere)\n"
                    "`[in code](not-a-link.md)`\n\n```\n[in a block](neither.md)\n```\n", encoding="utf-8")
    assert broken_links(page) == ["missing.md (no file " + str(tmp_path / "missing.md") + ")",
                                  "pic.png (no file " + str(tmp_path / "pic.png") + ")",
                                  "#nowhere (no heading #nowhere in page.md)"]


def test_only_the_report_pictures_may_be_missing(tmp_path):
    assert fnmatch.fnmatchcase("docs/report-chart.png", MADE_ELSEWHERE)
    assert not fnmatch.fnmatchcase("docs/other.png", MADE_ELSEWHERE)
    assert not fnmatch.fnmatchcase("report-chart.png", MADE_ELSEWHERE)


def test_help_points_to_the_reference_pages():
    done = subprocess.run([sys.executable, str(ROOT / "build.py"), "--help"], cwd=ROOT, capture_output=True,
                          text=True, timeout=60)
    assert done.returncode == 0, done.stderr
    named = re.findall(r"docs/[\w.-]+\.md", done.stdout)
    assert named, f"build.py --help names no page under docs/:\n{done.stdout}"
    missing = [name for name in named if not (ROOT / name).is_file()]
    assert not missing, f"build.py --help names pages that do not exist: {missing}"
