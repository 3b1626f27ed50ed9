"""The HTML report in a real browser (Debian's headless Chromium, driven over the DevTools pipe):
no console errors, no network requests, every chart loaded and visible and inside the page from
phone width to desktop; screenshots are checked in the test's tmp_path (pytest keeps the last runs')."""

from __future__ import annotations

import pytest

import chromium
import report_fixtures as rf

pytestmark = pytest.mark.skipif(
    chromium.available() is None,
    reason="chromium not installed (Debian package `chromium`; `make system-deps` or .ci/system-deps installs it)",
)

VIEWPORTS = {"phone": (375, 812), "desktop": (1280, 900)}

INSPECT = """(async () => {
  const images = [];
  for (const img of Array.from(document.querySelectorAll("img, svg.chart-svg"))) {
    img.scrollIntoView({block: "center"});
    const inline = img.tagName.toLowerCase() === "svg";  // inline charts: drawn with the page, no decoding
    if (!inline) { try { await img.decode(); } catch (error) {} }
    await document.fonts.ready;
    const r = img.getBoundingClientRect(), s = getComputedStyle(img);
    const hit = document.elementFromPoint(r.left + r.width / 2, r.top + r.height / 2);
    images.push({alt: inline ? img.getAttribute("aria-label") : img.alt, complete: inline || img.complete,
                 naturalWidth: inline ? img.viewBox.baseVal.width : img.naturalWidth,
                 width: r.width, height: r.height, left: r.left, right: r.right,
                 shown: s.visibility === "visible" && s.display !== "none" && parseFloat(s.opacity) > 0,
                 onTop: hit === img || img.contains(hit)});
  }
  window.scrollTo(0, 0);
  return {images, innerWidth: window.innerWidth, scrollWidth: document.documentElement.scrollWidth,
          text: document.body.innerText, fonts: [...document.fonts].map(f => f.family + ":" + f.status)};
})()"""


@pytest.fixture(scope="module")
def reports(tmp_path_factory):
    return rf.build_reports(tmp_path_factory.mktemp("browser"), sizes={"resnet": (14.0, 3.6), "bert": (6.4, 14.0)})


@pytest.fixture(scope="module")
def browser():
    with chromium.Chromium() as instance:
        yield instance


@pytest.mark.parametrize("viewport", VIEWPORTS)
@pytest.mark.parametrize("lang", rf.LANGS)
def test_report_in_chromium(reports, browser, lang, viewport, tmp_path):
    width, height = VIEWPORTS[viewport]
    page_url = reports[lang].html_path.as_uri()
    browser.events.clear()
    browser.open(page_url, width=width, height=height)
    found = browser.evaluate(INSPECT)

    assert browser.console_errors() == []
    fetched = [url for url in browser.requests() if url != page_url and not url.startswith("data:")]
    assert fetched == [], "the report must not load anything"

    images = found["images"]
    assert len(images) == len(rf.BENCHMARKS) + 1
    for image in images:
        assert image["complete"] and image["naturalWidth"] > 0, f"chart {image['alt']} did not load"
        assert image["shown"] and image["onTop"], f"chart {image['alt']} is hidden or covered"
        assert image["width"] > 100 and image["height"] > 50, f"chart {image['alt']} is too small: {image}"
        assert image["left"] >= 0 and image["right"] <= found["innerWidth"] + 0.5, f"chart {image['alt']} is cut"
    assert found["scrollWidth"] <= found["innerWidth"], "the page scrolls sideways"
    assert "Noto Sans CJK TC Subset:loaded" in found["fonts"]
    assert "DejaVu Sans Subset:loaded" in found["fonts"]  # the charts' labels, as text in the embedded subset
    assert rf.SECRET_CODE not in found["text"] and rf.PARAMETER_MARKER not in found["text"]
    assert f"resnet-{lang}-row" in found["text"]

    shot = browser.screenshot(tmp_path / f"browser-{lang}-{viewport}.png", max_height=6000)
    assert shot.stat().st_size > 10_000


def test_the_checks_catch_console_errors_and_network_requests(browser, tmp_path):
    """The same inspection on a page that breaks both rules must see both."""
    page = tmp_path / "bad.html"
    page.write_text('<!DOCTYPE html><title>bad</title><script>console.error("boom")</script>'
                    '<img src="http://127.0.0.1:9/chart.png" alt="x">', encoding="utf-8")
    browser.events.clear()
    browser.open(page.as_uri(), width=800, height=600)
    found = browser.evaluate(INSPECT)
    assert any("boom" in error for error in browser.console_errors())
    assert "http://127.0.0.1:9/chart.png" in browser.requests()
    assert found["images"][0]["naturalWidth"] == 0
