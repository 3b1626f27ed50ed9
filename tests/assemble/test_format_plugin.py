"""The formats seam as a user meets it: a format shipped by an installed package (a ``*.dist-info``
with an entry point in the group ``mlperf_report.formats``, as pip leaves it, on a folder of the
Python path) is built by ``build.py report`` when ``deliverables:`` in report.yaml names it, recorded
in ``deliverables.json``, listed in the report's contents and attached by ``send --dry-run`` to the
messages of a role that names it; no file of the project changes."""

from __future__ import annotations

import email
import email.policy
import json
import os
import shutil
import subprocess
import sys
from pathlib import Path

import yaml

from mlperf_report.core import paths

ROUND = "training-v1.0"
SHARED = ("mlperf_report", "notebooks", "templates", "locale", "data")
ENTRY_POINTS = "[mlperf_report.formats]\nclaims_txt = claims_txt_format\n"


def _snapshot() -> dict[str, int]:
    return {str(p): p.stat().st_mtime_ns for name in SHARED for p in (paths.ROOT / name).rglob("*")
            if p.is_file() and "__pycache__" not in p.parts}


def _install(site: Path) -> None:
    """What ``pip install`` of a package holding ``toy_format.py`` leaves: its module and its metadata."""
    shutil.copy(Path(__file__).with_name("toy_format.py"), site / "claims_txt_format.py")
    info = site / "claims_txt-0.1.dist-info"
    info.mkdir(parents=True)
    (info / "METADATA").write_text("Metadata-Version: 2.1\nName: claims-txt\nVersion: 0.1\n", encoding="utf-8")
    (info / "entry_points.txt").write_text(ENTRY_POINTS, encoding="utf-8")


def _config(path: Path) -> None:
    config = yaml.safe_load(paths.REPORT_CONFIG.read_text(encoding="utf-8"))
    config["deliverables"] = ["html", "claims_txt"]
    config["mail"] = {"sender": "Reports <reports@example.com>", "roles": {"readers": ["claims_txt"]},
                      "smtp": {"host": "localhost", "port": 25, "security": "none"},
                      "lists": {"team": {"role": "readers", "members": [{"email": "tw@example.com", "lang": "zh-Hant"}]}},
                      "default_list": "team"}
    path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")


def _run(*args: str, site: Path) -> subprocess.CompletedProcess:
    environ = {**os.environ, "PYTHONPATH": os.pathsep.join([str(site), os.environ.get("PYTHONPATH", "")])}
    done = subprocess.run([sys.executable, "build.py", *args], cwd=paths.ROOT, env=environ, capture_output=True,
                          text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    return done


def test_an_installed_format_named_in_the_configuration_is_built_listed_and_mailed(tmp_path):
    before = _snapshot()
    site, out, config = tmp_path / "site", tmp_path / "out", tmp_path / "report.yaml"
    site.mkdir()
    _install(site)
    _config(config)
    _run("report", "--config", str(config), "--output-dir", str(out), "--benchmarks", "resnet", "--jobs", "2",
         site=site)
    round_out = out / ROUND
    made = json.loads((round_out / "deliverables.json").read_text(encoding="utf-8"))
    assert made["en"] == {"html": ["report.en.html", "report.html"], "claims_txt": ["claims.en.txt"]}
    assert made["zh-Hant"]["claims_txt"] == ["claims.zh-Hant.txt"]
    lines = (round_out / "claims.zh-Hant.txt").read_text(encoding="utf-8").splitlines()
    assert lines[0] == "MLPerf Training 測試結果" and len(lines) > 1 and lines[1].startswith("- ")
    assert 'href="claims.en.txt"' in (round_out / "report.en.html").read_text(encoding="utf-8")
    assert not list(round_out.glob("*.pdf")) and not list(round_out.glob("*.pptx"))  # only what was named

    _run("send", "--round", ROUND, "--dry-run", "--config", str(config), "--output-dir", str(out), site=site)
    drafts = list((round_out / "mail").glob("*.eml"))
    assert len(drafts) == 1
    message = email.message_from_bytes(drafts[0].read_bytes(), policy=email.policy.default)
    files = {part.get_filename(): part for part in message.iter_attachments()}
    assert list(files) == [f"mlperf-{ROUND}-claims.zh-Hant.txt"]
    part = files[f"mlperf-{ROUND}-claims.zh-Hant.txt"]
    assert part.get_content_type() == "text/plain"
    assert part.get_content().splitlines() == lines
    assert _snapshot() == before  # nothing of the project knows or changes for it
