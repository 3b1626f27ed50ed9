"""Delivery by role, through a real SMTP server (aiosmtpd on localhost): each list says which
deliverables its members get (executives: the brief and the slides; press: the chart cards and the
report; analysts: the report and the workbook), in their language, one message per member, exactly
once; a member whose set is over the size limit is refused before anything is sent."""

from __future__ import annotations

import os
import subprocess
import sys
from pathlib import Path

import pytest
import yaml

import smtp_server
from mlperf_report.core import paths
from mlperf_report.core.errors import UserError
from mlperf_report.mail import outbox

ROUND = "training-v1.0"
ROLES = {"executives": ["brief", "slides"], "press": ["cards", "report"], "analysts": ["report", "workbook"]}


@pytest.fixture(scope="module")
def built(tmp_path_factory):
    """The default report (two of its benchmarks) with its press kit, built once, and a configuration with
    three roles."""
    root = tmp_path_factory.mktemp("roles")
    config = yaml.safe_load(paths.REPORT_CONFIG.read_text(encoding="utf-8"))
    config["mail"] = {
        "sender": "MLPerf report <mlperf-report@example.com>", "roles": ROLES,
        "lists": {
            "executives": {"role": "executives", "members": [{"email": "ceo@example.com", "lang": "en"},
                                                             {"email": "gm-tw@example.com", "lang": "zh-Hant"}]},
            "press": {"role": "press", "members": [{"email": "press@example.com", "lang": "zh-Hant"}]},
            "analysts": [{"email": "analyst@example.com", "lang": "en", "role": "analysts"},
                         {"email": "cfo@example.com", "lang": "en", "deliverables": ["brief"]}],
            "everything": {"deliverables": ["report", "slides", "cards", "workbook"],
                           "members": [{"email": "all@example.com", "lang": "en"}]},
        }, "default_list": "executives"}
    config_path = root / "report.yaml"
    config_path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    done = subprocess.run([sys.executable, "build.py", "report", "--config", str(config_path), "--output-dir",
                           str(root / "output"), "--benchmarks", "bert,resnet"],  # two are enough for the mail
                          cwd=paths.ROOT, capture_output=True, text=True)
    assert done.returncode == 0, done.stderr[-3000:]
    return {"config_path": config_path, "output_dir": root / "output", "round_dir": root / "output" / ROUND}


def configured(built, tmp_path, config) -> dict:
    """``built`` with another configuration, dated before the build (a newer one would be refused as
    an input changed since the build, which is right, and not what these tests are about)."""
    path = tmp_path / "report.yaml"
    path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    past = built["config_path"].stat().st_mtime
    os.utime(path, (past, past))
    return dict(built, config_path=path)


def send(built, port, list_name, **options):
    environ = {"SMTP_HOST": smtp_server.HOST, "SMTP_PORT": str(port), "SMTP_SECURITY": "none"}
    return outbox.send_reports(round_id=ROUND, config_path=built["config_path"], data_dir=paths.DATA,
                               output_dir=built["output_dir"], list_name=list_name, environ=environ,
                               retry=smtp_server.FAST, **options)


def attached(received) -> dict[str, tuple[str, bytes]]:
    """filename -> (content type, bytes) of one received message."""
    return {part.get_filename(): (part.get_content_type(), part.get_content())
            for part in received.message.iter_attachments()}


def expected(round_dir: Path, lang: str, names) -> dict[str, bytes]:
    """What the build made of ``names`` in ``lang``, as the recipient should see it named."""
    import json

    made = json.loads((round_dir / "deliverables.json").read_text())
    files = {}
    for name in names:
        if name == "report":
            files[f"mlperf-{ROUND}-report.{lang}.pdf"] = (round_dir / f"report.{lang}.pdf").read_bytes()
            continue
        listed = made[lang].get(name) or next(by[name] for by in made.values() if name in by)
        files.update({f"mlperf-{ROUND}-{Path(f).name}": (round_dir / f).read_bytes() for f in listed})
    return files


def test_each_member_gets_its_roles_deliverables_in_its_language_once(built, server):
    handler, controller = server
    for list_name in ("executives", "press", "analysts", "everything"):
        assert send(built, controller.port, list_name) == 0
    by_address = {r.rcpt_tos[0]: r for r in handler.received}
    assert sorted(by_address) == sorted(["ceo@example.com", "gm-tw@example.com", "press@example.com",
                                         "analyst@example.com", "cfo@example.com", "all@example.com"])
    wanted = {"ceo@example.com": ("en", ROLES["executives"]), "gm-tw@example.com": ("zh-Hant", ROLES["executives"]),
              "press@example.com": ("zh-Hant", ROLES["press"]), "analyst@example.com": ("en", ROLES["analysts"]),
              "cfo@example.com": ("en", ["brief"]), "all@example.com": ("en", ["report", "slides", "cards", "workbook"])}
    for address, (lang, names) in wanted.items():
        got = attached(by_address[address])
        want = expected(built["round_dir"], lang, names)
        assert {name: data for name, (_, data) in got.items()} == want, address
    types = {name: kind for r in handler.received for name, (kind, _) in attached(r).items()}
    assert types[f"mlperf-{ROUND}-slides.en.pptx"].endswith("presentationml.presentation")
    assert types[f"mlperf-{ROUND}-results.xlsx"].endswith("spreadsheetml.sheet")
    assert any(kind == "image/png" for kind in types.values()) and any(kind == "image/svg+xml" for kind in types.values())
    for list_name in ("executives", "press", "analysts", "everything"):  # nobody is mailed twice
        assert send(built, controller.port, list_name) == 0
    assert len(handler.received) == 6


def test_a_set_over_the_size_limit_is_refused_before_any_message(built, server, tmp_path):
    handler, controller = server
    config = yaml.safe_load(built["config_path"].read_text(encoding="utf-8"))
    config["mail"]["max_attachments_mb"] = 0.05
    tight = configured(built, tmp_path, config)
    with pytest.raises(UserError, match=r"all@example.com: the attachments come to .* over the 0.05 MB"):
        send(tight, controller.port, "everything")
    assert handler.received == []


def test_an_unknown_role_and_a_deliverable_not_built_are_refused_with_the_fix(built, server, tmp_path):
    handler, controller = server
    config = yaml.safe_load(built["config_path"].read_text(encoding="utf-8"))
    config["mail"]["lists"]["odd"] = {"role": "investors", "members": [{"email": "i@example.com", "lang": "en"}]}
    config["mail"]["lists"]["html"] = {"deliverables": ["exhibits", "nonsense"],
                                       "members": [{"email": "h@example.com", "lang": "en"}]}
    with pytest.raises(UserError, match=r"no role 'investors' in `mail: roles:`"):
        send(configured(built, tmp_path, config), controller.port, "executives")
    del config["mail"]["lists"]["odd"]
    odd = configured(built, tmp_path, config)
    with pytest.raises(UserError, match=r"no format called 'nonsense'; the formats are .*slides"):
        send(odd, controller.port, "html")
    assert handler.received == []
