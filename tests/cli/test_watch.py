"""``build.py watch`` on a local git repository in which a new round appears between two checks: the
first check finds nothing, the second ingests, builds and mails it once, a restart after a kill never
mails twice, and a failed step is mailed to the operator once and nothing else is sent."""

from __future__ import annotations

import argparse
import json
import subprocess
from pathlib import Path

import pytest
import smtp_server
import yaml
from smtp_server import HOST, MailServer
from synthetic_round import write_tree
from trees import good_tree

from mlperf_report.cli import watch as watch_cli
from mlperf_report.core import paths, watch
from mlperf_report.core.config import load_config


def test_the_next_rounds_names_and_what_a_folder_of_archives_holds(tmp_path):
    assert [r.id for r in watch.candidates(["training-v1.0", "training-v4.1", "inference-v4.1"], ["training"])] == [
        "training-v4.2", "training-v5.0"]
    (tmp_path / "training_results_v5.0.zip").write_bytes(b"PK")
    (tmp_path / "inference_results_v5.1.tar.gz").write_bytes(b"x")
    (tmp_path / "notes.txt").write_text("not a round")
    assert sorted(watch.archives_in(tmp_path)) == ["inference-v5.1", "training-v5.0"]
    asked = []
    found = watch.find_new(["https://example.org/{suite}_results_v{version}", str(tmp_path)], ["training-v4.1"],
                           ["training"], lambda url: asked.append(url) or url.endswith("v5.0"))
    assert asked == ["https://example.org/training_results_v4.2", "https://example.org/training_results_v5.0"]
    assert found == [watch.Found("training-v5.0", "https://example.org/training_results_v5.0")]  # the URL first
    assert watch.find_new([str(tmp_path)], ["training-v5.0"], ["training"], lambda url: True) == []


def _git(*argv: str, cwd: Path) -> None:
    subprocess.run(["git", *argv], cwd=cwd, check=True, capture_output=True,
                   env={"GIT_AUTHOR_NAME": "t", "GIT_AUTHOR_EMAIL": "t@example.com", "GIT_COMMITTER_NAME": "t",
                        "GIT_COMMITTER_EMAIL": "t@example.com", "HOME": str(cwd), "PATH": "/usr/bin:/bin"})


def _publish(repos: Path, name: str) -> None:
    """A results repository as MLCommons publishes one: a tree of result logs and systems JSON, committed."""
    repo = repos / name
    good_tree(repo)
    _git("init", "-q", cwd=repo)
    _git("add", "-A", cwd=repo)
    _git("commit", "-q", "-m", "results", cwd=repo)


@pytest.fixture
def setup(tmp_path, monkeypatch):
    handler = MailServer()
    controller = smtp_server.start(handler)
    monkeypatch.setenv("MLPERF_REPORT_CACHE", str(tmp_path / "cache"))  # the steps' clones and fonts
    monkeypatch.setenv("SMTP_HOST", HOST)
    monkeypatch.setenv("SMTP_PORT", str(controller.port))
    monkeypatch.setenv("SMTP_SECURITY", "none")
    data_dir = write_tree(tmp_path / "data")  # training-v0.7 and v1.0: the next are v1.1 and v2.0
    config = yaml.safe_load(paths.REPORT_CONFIG.read_text(encoding="utf-8"))
    config.update(focus_submitter="Acme", languages=["en"], round="training-v1.0",
                  deliverables=["html", "pdf"])  # the report and its PDF: the press kit has its own tests
    config["watch"] = {"sources": [f"file://{tmp_path}/repos/{{suite}}_results_v{{version}}", str(tmp_path / "drop")],
                       "suites": ["training"], "operator": "ops@example.com", "send": True,
                       "state": str(tmp_path / "state.json"), "focus_each": "Acme"}
    config["mail"]["lists"] = {"executives": [{"name": "Exec", "email": "exec@example.com", "lang": "en"},
                                              {"name": "Acme team", "email": "acme@example.com", "lang": "en",
                                               "focus": "Acme"}]}
    (tmp_path / "repos").mkdir()
    (tmp_path / "drop").mkdir()
    config_path = tmp_path / "report.yaml"
    config_path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    args = argparse.Namespace(once=True, interval=0, send=False, dry_run=False, no_compliance=True,
                              config=config_path, data_dir=data_dir, output_dir=tmp_path / "out")
    yield args, handler, tmp_path
    controller.stop()


def _check(args) -> int:
    return watch_cli.check(args, load_config(args.config).watch)


def test_a_new_round_is_ingested_reported_and_mailed_once(setup, capsys):
    args, handler, tmp_path = setup
    assert _check(args) == 0 and "watch: nothing new" in capsys.readouterr().out
    assert handler.received == []

    _publish(tmp_path / "repos", "training_results_v1.1")
    assert _check(args) == 0
    assert (args.data_dir / "training-v1.1" / "results.csv").is_file()
    assert (args.output_dir / "training-v1.1" / "report.en.pdf").is_file()
    acme = args.output_dir / "training-v1.1" / "focus" / "acme" / "training-v1.1" / "report.en.pdf"
    assert sorted(r.rcpt_tos[0] for r in handler.received) == ["acme@example.com", "exec@example.com"]
    [to_acme] = [r.message for r in handler.received if r.rcpt_tos == ["acme@example.com"]]
    assert next(to_acme.iter_attachments()).get_content() == acme.read_bytes()  # the Acme story, its own report
    assert (args.output_dir / "training-v1.1" / "index.html").is_file()
    state = json.loads((tmp_path / "state.json").read_text())
    assert state["rounds"]["training-v1.1"]["steps"] == ["ingest", "report", "focus-each", "send"]

    assert _check(args) == 0 and len(handler.received) == 2  # nothing new: nothing mailed

    # killed after mailing but before the state said so: the restart runs send again, which mails nobody twice
    state["rounds"]["training-v1.1"]["steps"] = ["ingest", "report", "focus-each"]
    (tmp_path / "state.json").write_text(json.dumps(state))
    assert _check(args) == 0 and len(handler.received) == 2
    assert json.loads((tmp_path / "state.json").read_text())["rounds"]["training-v1.1"]["steps"][-1] == "send"


def test_a_failed_step_is_mailed_to_the_operator_once_and_nothing_is_sent(setup, capsys):
    args, handler, tmp_path = setup
    (tmp_path / "drop" / "training_results_v2.0.zip").write_bytes(b"not a zip archive")
    assert _check(args) != 0
    assert [r.rcpt_tos for r in handler.received] == [["ops@example.com"]]
    alert = handler.received[0].message
    assert alert["Subject"] == "MLPerf report watch: training-v2.0 failed at ingest"
    assert "No report of this round was mailed" in alert.get_content()
    assert _check(args) != 0 and len(handler.received) == 1  # retried, not mailed again
    state = json.loads((tmp_path / "state.json").read_text())["rounds"]["training-v2.0"]
    assert state["steps"] == [] and state["alerted"] == "ingest"
