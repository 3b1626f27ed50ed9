"""Sending the reports to a real SMTP server on localhost: who gets what, in which language, once."""

from __future__ import annotations

import argparse
import html
import io
import json
import os
import re
from datetime import datetime, timezone
from pathlib import Path
from email.utils import parsedate_to_datetime

import pypdf
import pytest
import smtp_server
from smtp_server import (FAST, HOST, PASSWORD, ROUND, MailServer, log_entries, make_project, self_signed, send,
                         server_context)

from mlperf_report.mail import message as mail
from mlperf_report.cli import send as mail_cli
from mlperf_report.mail import delivery, outbox
from mlperf_report.core.config import load_config
from mlperf_report.mail import recipients, report_check, sendlog
from mlperf_report.mail.attachments import Attachment
from mlperf_report.mail import smtp as smtp_send
from mlperf_report.core.errors import UserError


@pytest.fixture(scope="module")
def cert(tmp_path_factory):
    return self_signed(tmp_path_factory.mktemp("tls"))


@pytest.fixture
def project(tmp_path):
    return make_project(tmp_path)


def attachment(message):
    parts = [p for p in message.iter_attachments() if p.get_content_type() == "application/pdf"]
    assert len(parts) == 1
    return parts[0]


def test_each_recipient_gets_one_message_with_their_language_report(project, server):
    handler, controller = server
    assert send(project, controller.port, list_name="press") == 0

    got = handler.by_recipient()
    assert sorted(got) == ["press-tw@example.com", "press@example.com", "sales@example.com"]
    assert all(len(items) == 1 for items in got.values())
    assert {item.mail_from for item in handler.received} == {"mlperf-report@example.com"}

    english = got["press@example.com"][0].message
    assert english["Subject"] == "MLPerf® Training v1.0 results: Graphcore report"
    assert str(english["To"]) == "Press Office <press@example.com>"
    pdf = attachment(english)
    assert pdf.get_filename() == f"mlperf-{ROUND}-report.en.pdf"
    assert pdf.get_content() == (project["round_dir"] / "report.pdf").read_bytes()
    assert len(pypdf.PdfReader(io.BytesIO(pdf.get_content())).pages) == 1

    chinese_item = got["press-tw@example.com"][0]
    raw_subject = re.search(rb"^Subject: (.*(?:\r\n[ \t].*)*)", chinese_item.data, re.M).group(1)
    assert raw_subject.isascii() and b"=?utf-8?" in raw_subject.lower()  # RFC 2047, not raw UTF-8 bytes
    chinese = chinese_item.message
    assert chinese["Subject"] == "MLPerf® Training v1.0 成績報告：Graphcore"
    assert chinese["To"].addresses[0].display_name == "台灣新聞聯絡人"
    assert chinese["Content-Language"] == "zh-Hant"
    assert attachment(chinese).get_content() == project["reports"]["zh-Hant"]
    assert "28.3 分鐘" in chinese.get_body(("plain",)).get_content()

    for item in handler.received:
        message = item.message
        assert re.fullmatch(r"<[^<>@\s]+@example\.com>", message["Message-ID"])
        assert abs((parsedate_to_datetime(message["Date"]) - datetime.now(timezone.utc)).total_seconds()) < 60
        assert message.get_body(("html",)).get_content_type() == "text/html"
        assert message.get_body(("plain",)).get_content_type() == "text/plain"

    raw = sendlog.read_entries(project["round_dir"] / "mail" / "sent.jsonl")
    assert [e["status"] for e in raw] == ["sending", "sent"] * 3  # each outcome follows its announcement
    assert all(a["message_id"] == b["message_id"] for a, b in zip(raw[::2], raw[1::2]))
    entries = log_entries(project)
    by_address = {e["recipient"]: e for e in entries}
    assert by_address["press-tw@example.com"]["sha256"] == mail.sha256(project["reports"]["zh-Hant"])
    assert by_address["press@example.com"]["message_id"] == english["Message-ID"]


def test_a_second_run_sends_nothing_and_force_sends_again(project, server, capsys):
    handler, controller = server
    assert send(project, controller.port, list_name="press") == 0
    assert len(handler.received) == 3

    assert send(project, controller.port, list_name="press") == 0
    assert len(handler.received) == 3
    assert capsys.readouterr().out.count("skip  ") == 3

    assert send(project, controller.port, list_name="press", force=True) == 0
    assert len(handler.received) == 6
    assert len([e for e in log_entries(project) if e["status"] == "sent"]) == 6


def test_a_message_in_flight_when_a_run_died_is_not_sent_again_without_force(project, server, capsys):
    handler, controller = server
    log = project["round_dir"] / "mail" / "sent.jsonl"
    sha = mail.sha256(project["reports"]["en"])
    sendlog.append(log, {"recipient": "executives@example.com", "sha256": sha, "message_id": "<1@example.com>",
                         "status": "sending"})  # what a run killed mid-send leaves behind
    assert send(project, controller.port) == 1
    assert handler.received == []
    assert "may have been delivered" in capsys.readouterr().err
    assert send(project, controller.port, force=True) == 0
    assert len(handler.received) == 1
    assert send(project, controller.port) == 0  # now recorded as sent
    assert len(handler.received) == 1


def test_a_rebuilt_report_is_a_new_report(project, server):
    handler, controller = server
    assert send(project, controller.port) == 0
    (project["round_dir"] / "report.en.pdf").write_bytes(smtp_server.tiny_pdf("rebuilt"))
    assert send(project, controller.port) == 0
    assert len(handler.received) == 2
    assert attachment(handler.received[1].message).get_content() == smtp_server.tiny_pdf("rebuilt")


def test_dry_run_writes_eml_files_and_sends_nothing(project, server):
    handler, controller = server
    assert send(project, controller.port, list_name="press", dry_run=True) == 0
    assert handler.received == [] and handler.data_commands == 0
    mail_dir = project["round_dir"] / "mail"
    assert not (mail_dir / "sent.jsonl").exists()
    emls = sorted(p.name for p in mail_dir.glob("*.eml"))
    assert emls == ["en-press_example.com.eml", "en-sales_example.com.eml", "zh-Hant-press-tw_example.com.eml"]
    message = smtp_server.Received("", [], (mail_dir / emls[2]).read_bytes()).message
    assert message["Subject"] == "MLPerf® Training v1.0 成績報告：Graphcore"
    assert attachment(message).get_content() == project["reports"]["zh-Hant"]
    assert "MLPerf Training 測試結果" in message.get_body(("plain",)).get_content()  # the title in their language
    english = smtp_server.Received("", [], (mail_dir / emls[0]).read_bytes()).message
    assert "MLPerf Training results" in english.get_body(("plain",)).get_content()


def test_dry_run_needs_no_smtp_settings(project):
    environ = {"SMTP_SECURITY": "none", "SMTP_HOST": "relay.example.com"}  # would be refused when sending
    assert outbox.send_reports(round_id=ROUND, config_path=project["config_path"], data_dir=project["data_dir"],
                                 output_dir=project["output_dir"], environ=environ, dry_run=True) == 0


def test_to_and_lang_choose_recipients_and_report(project, server):
    handler, controller = server
    assert send(project, controller.port, to=["press-tw@example.com", "someone@example.org"]) == 0
    got = handler.by_recipient()
    assert attachment(got["press-tw@example.com"][0].message).get_content() == project["reports"]["zh-Hant"]
    assert attachment(got["someone@example.org"][0].message).get_content() == project["reports"]["en"]

    assert send(project, controller.port, list_name="press", lang="zh-Hant", force=True) == 0
    assert [item.rcpt_tos for item in handler.received[2:]] == [["press-tw@example.com"]]


def test_starttls_with_login(project, cert):
    handler = MailServer(login=("reporter", PASSWORD))
    controller = smtp_server.start(handler, starttls=server_context(*cert))
    try:
        smtp = {"host": "localhost", "port": controller.port, "security": "starttls", "cafile": str(cert[0]),
                "timeout": 5}
        settings = smtp_send.settings_from(smtp, {"SMTP_USER": "reporter", "SMTP_PASSWORD": PASSWORD})
        data = mail.to_bytes(_message(project))
        with smtp_send.Session(settings, FAST) as session:
            outcome = session.send("mlperf-report@example.com", "executives@example.com", data)
        assert outcome.ok and outcome.attempts == 1
        assert handler.auth_attempts == 1
        assert handler.received[0].data.replace(b"\r\n", b"\n") == data.replace(b"\r\n", b"\n")
    finally:
        controller.stop()


def test_implicit_tls(project, cert):
    handler = MailServer()
    controller = smtp_server.start(handler, implicit_tls=server_context(*cert))
    try:
        smtp = {"host": "localhost", "port": controller.port, "security": "ssl", "cafile": str(cert[0]),
                "timeout": 5}
        with smtp_send.Session(smtp_send.settings_from(smtp, {}), FAST) as session:
            assert session.send("mlperf-report@example.com", "executives@example.com",
                                mail.to_bytes(_message(project))).ok
        assert len(handler.received) == 1
    finally:
        controller.stop()


def _message(project):
    recipient = recipients.Recipient("Executive Team", "executives@example.com", "en")
    text, markup = mail.bodies(recipient, title="T", round_title="MLPerf Training v1.0", filename="r.pdf",
                               headlines=[], source=None)
    return mail.build_message(sender="MLPerf <mlperf-report@example.com>", recipient=recipient,
                              subject_line="s", text=text, markup=markup,
                              attachments=[Attachment(Path("r.pdf"), project["reports"]["en"], "r.pdf")],
                              now=datetime.now(timezone.utc))


# --- the report must be the finished build -----------------------------------------------------------

def test_refuses_missing_empty_truncated_or_stale_reports(project, server):
    handler, controller = server
    pdf = project["round_dir"] / "report.en.pdf"
    inputs = [project["data_dir"] / ROUND / "results.csv"]
    assert report_check.checked_pdf(pdf, inputs, ROUND) == project["reports"]["en"]

    for content, words in [(b"", "is empty"), (project["reports"]["en"][:200], "not a complete PDF")]:
        pdf.write_bytes(content)
        with pytest.raises(UserError, match=words) as error:
            report_check.checked_pdf(pdf, inputs, ROUND)
        assert f"python build.py report --round {ROUND}" in str(error.value)

    pdf.write_bytes(project["reports"]["en"])
    later = pdf.stat().st_mtime + 10
    os.utime(inputs[0], (later, later))
    with pytest.raises(UserError, match="older than its input .*results.csv"):
        report_check.checked_pdf(pdf, inputs, ROUND)
    with pytest.raises(UserError, match="older than"):
        send(project, controller.port)  # the CLI checks the same inputs

    pdf.unlink()
    (project["round_dir"] / "report.pdf").unlink()
    with pytest.raises(UserError, match="does not exist"):
        report_check.checked_pdf(report_check.report_pdf(project["round_dir"], "en", ["en"]), [], ROUND)
    assert handler.received == []


def test_every_report_is_checked_before_anyone_is_mailed(project, server):
    handler, controller = server
    (project["round_dir"] / "report.zh-Hant.pdf").unlink()
    with pytest.raises(UserError, match="report.zh-Hant.pdf does not exist"):
        send(project, controller.port, list_name="press")
    assert handler.received == []


def test_report_pdf_falls_back_to_report_pdf_for_the_first_language_only(tmp_path):
    (tmp_path / "report.pdf").write_bytes(b"x")
    assert report_check.report_pdf(tmp_path, "en", ["en", "zh-Hant"]).name == "report.pdf"
    assert report_check.report_pdf(tmp_path, "zh-Hant", ["en", "zh-Hant"]).name == "report.zh-Hant.pdf"


# --- the body quotes the narrative's headlines, made from the figures files, and nothing else ---------

def _numbers(text):
    return set(re.findall(r"\d+(?:[.,]\d+)*", text))


def _dry_run_body(project, lang, address):
    assert outbox.send_reports(round_id=ROUND, config_path=project["config_path"], data_dir=project["data_dir"],
                                 output_dir=project["output_dir"], to=[address], lang=lang, dry_run=True,
                                 force=True) == 0
    eml = project["round_dir"] / "mail" / delivery.eml_name(lang, address)
    message = smtp_server.Received("", [], eml.read_bytes()).message
    return message.get_body(("plain",)).get_content(), message.get_body(("html",)).get_content()


@pytest.mark.parametrize("lang, minutes", [("en", "28.3 minutes"), ("zh-Hant", "28.3 分鐘")])
def test_the_body_carries_the_narrative_headline_and_invents_no_number(project, lang, minutes):
    from mlperf_report.core import config
    from mlperf_report.suites.training import narrative
    from mlperf_report.narrative import rendering
    from mlperf_report.core import prices

    text, markup = _dry_run_body(project, lang, "a@example.com")
    figures, _ = rendering.load_figures(project["round_dir"] / "figures")
    args = (figures, config.load_config(project["config_path"]), lang)
    catalogue = prices.load_prices(project["data_dir"] / "prices.yaml")
    lines = narrative.headline_summary(*args, catalogue=catalogue)
    notes = narrative.headline_notes(*args, catalogue=catalogue)
    assert any(minutes in line for line in lines)  # 28.33617 in figures.json, formatted
    for line in lines + notes:
        assert line in text and html.escape(line) in markup
        text, markup = text.replace(line, ""), markup.replace(html.escape(line), "")
    # what is left is our own wording: no figure in it, only the round and the file name
    assert _numbers(text) <= {"1.0"}
    assert _numbers(markup.replace('charset="utf-8"', "")) <= {"1.0"}


def test_without_figures_the_body_has_no_figures_and_cites_the_source(project):
    for path in (project["round_dir"] / "figures").glob("*.json"):
        path.unlink()
    text, _ = _dry_run_body(project, "en", "a@example.com")
    assert "Headline figures" not in text
    assert "Source: https://github.com/mlcommons/training_results_v1.0, retrieved 2021-06-30." in text


def test_html_body_is_escaped():
    recipient = recipients.Recipient("<b>Ann</b>", "a@example.com", "en")
    _, markup = mail.bodies(recipient, title="t", round_title="r", filename="f", headlines=["a<script>"],
                            source=None)
    assert "<script>" not in markup and "&lt;b&gt;Ann" in markup


def test_a_name_cannot_inject_headers(project):
    recipient = recipients.Recipient("Eve\r\nBcc: victim@example.org", "eve@example.com", "en")
    with pytest.raises(ValueError, match="CR or LF"):
        mail.build_message(sender="a <a@example.com>", recipient=recipient, subject_line="s", text="t",
                           markup="<p>t</p>", attachments=[Attachment(Path("f.pdf"), b"%PDF-", "f.pdf")],
                           now=datetime.now())
    with pytest.raises(UserError, match="line break"):
        recipients.lists({"lists": {"x": [{"name": "Eve\nBcc: v@example.org", "email": "e@example.com"}]}})


# --- configuration ---------------------------------------------------------------------------------

def test_recipient_selection(project):
    config = load_config(project["config_path"])
    section, langs = config.mail, list(config.languages)
    assert [r.email for r in recipients.select_recipients(section, langs)] == ["executives@example.com"]
    known = recipients.select_recipients(section, langs, to=["PRESS-TW@example.com", "x@example.org"])
    assert known[0] == recipients.Recipient("台灣新聞聯絡人", "PRESS-TW@example.com", "zh-Hant")
    assert known[1] == recipients.Recipient("", "x@example.org", "en")
    assert [r.lang for r in recipients.select_recipients(section, langs, to=["x@example.org"], lang="zh-Hant")] \
        == ["zh-Hant"]
    assert len(recipients.select_recipients(section, langs, to=["a@x.org", "A@x.org"])) == 1
    with pytest.raises(UserError, match="no mail list 'nope'; configured lists: executives, press"):
        recipients.select_recipients(section, langs, list_name="nope")
    with pytest.raises(UserError, match="built in en, zh-Hant only"):
        recipients.select_recipients(section, langs, lang="fr")


def test_a_bad_address_is_reported_and_the_others_still_sent(project, server, capsys):
    handler, controller = server
    assert send(project, controller.port, to=["not-an-address", "名@example.com", "ok@example.com"]) == 1
    assert list(handler.by_recipient()) == ["ok@example.com"]
    err = capsys.readouterr().err
    assert "not-an-address" in err and "名@example.com" in err
    assert mail.address_problem("first.last+mlperf@mail.example.co.uk") is None


def test_smtp_settings_from_config_and_environment():
    config = {"host": "localhost", "port": 587, "security": "starttls"}
    assert smtp_send.settings_from(config, {}) == smtp_send.SmtpSettings("localhost", 587, "starttls")
    env = {"SMTP_HOST": "relay.example.com", "SMTP_SECURITY": "ssl", "SMTP_USER": "u", "SMTP_PASSWORD": PASSWORD}
    settings = smtp_send.settings_from(config, env)
    assert (settings.host, settings.port, settings.security, settings.user) == ("relay.example.com", 587, "ssl", "u")
    assert smtp_send.settings_from({}, {"SMTP_SECURITY": "ssl"}).port == 465
    assert PASSWORD not in repr(settings)

    with pytest.raises(UserError, match="--insecure"):
        smtp_send.settings_from(config, {"SMTP_HOST": "relay.example.com", "SMTP_SECURITY": "none"})
    assert smtp_send.settings_from(config, {"SMTP_HOST": "relay.example.com", "SMTP_SECURITY": "none"},
                                   insecure=True).security == "none"
    for host in ("127.0.0.1", "::1", "localhost"):
        assert smtp_send.settings_from(config, {"SMTP_HOST": host, "SMTP_SECURITY": "none"}).host == host
    with pytest.raises(UserError, match="secrets never go there"):
        smtp_send.settings_from(dict(config, password="x"), {})
    with pytest.raises(UserError, match="both SMTP_USER and SMTP_PASSWORD"):
        smtp_send.settings_from(config, {"SMTP_USER": "u"})
    with pytest.raises(UserError, match="not one of"):
        smtp_send.settings_from(config, {"SMTP_SECURITY": "tls"})


def test_the_shipped_configuration_is_sendable():
    from mlperf_report.core import paths

    config = load_config(paths.REPORT_CONFIG)
    section, langs = recipients.mail_section(config.mail), list(config.languages)
    assert mail.envelope_sender(section["sender"]).count("@") == 1
    assert smtp_send.settings_from(section["smtp"], {}).security == "starttls"
    for name in recipients.lists(section):
        assert recipients.select_recipients(section, langs, list_name=name)
    assert recipients.select_recipients(section, langs)  # the default list


def test_command_line(project, server, monkeypatch, capsys):
    handler, controller = server
    parser = argparse.ArgumentParser()
    mail_cli.configure_parser(parser)
    monkeypatch.setenv("SMTP_HOST", HOST)
    monkeypatch.setenv("SMTP_PORT", str(controller.port))
    monkeypatch.setenv("SMTP_SECURITY", "none")
    argv = ["--round", ROUND, "--to", "a@example.com, b@example.com", "--config", str(project["config_path"]),
            "--data-dir", str(project["data_dir"]), "--output-dir", str(project["output_dir"])]
    assert mail_cli.run(parser.parse_args(argv)) == 0
    assert sorted(handler.by_recipient()) == ["a@example.com", "b@example.com"]
    assert "sent 2, already sent 0, failed 0" in capsys.readouterr().out
    with pytest.raises(SystemExit):
        parser.parse_args(argv + ["--list", "press"])  # --to and --list exclude each other


def test_send_log_ignores_a_torn_last_line(tmp_path):
    log = tmp_path / "sent.jsonl"
    sendlog.append(log, {"recipient": "A@x.org", "sha256": "abc", "status": "sent"})
    with open(log, "a") as handle:
        handle.write('{"recipient": "b@x.org", "sha')
    keys = sendlog.sent_keys(sendlog.read_entries(log))
    assert sendlog.already_sent(keys, "a@x.org", "abc") and not sendlog.already_sent(keys, "a@x.org", "abd")
    assert json.loads(log.read_text().splitlines()[0])["recipient"] == "A@x.org"


def test_two_sends_of_one_round_cannot_run_at_once(tmp_path):
    log = tmp_path / "sent.jsonl"
    with sendlog.exclusive(log):
        with pytest.raises(UserError, match="another `build.py send` is running"):
            with sendlog.exclusive(log):
                pass


def test_build_py_send_exit_codes_and_error_line(project, capsys):
    from mlperf_report.cli import main as cli

    paths_args = ["--config", str(project["config_path"]), "--data-dir", str(project["data_dir"]),
                  "--output-dir", str(project["output_dir"])]
    assert cli.main(["send", "--round", ROUND, "--dry-run", *paths_args]) == 0
    (project["round_dir"] / "report.en.pdf").unlink()
    (project["round_dir"] / "report.pdf").unlink()
    assert cli.main(["send", "--round", ROUND, "--dry-run", *paths_args]) == 2
    err = capsys.readouterr().err.strip().splitlines()
    assert err[-1].startswith("error: report ") and err[-1].endswith(
        f"does not exist; run `python build.py report --round {ROUND}` first")
