"""The send log's promises, on logs written by hand: who has the report, whose message was in flight
(maybe delivered: never sent again), what a torn last line means; and how SMTP failures are sorted
into retried, refused for good and fatal. (Fast: `make mutate` judges sendlog.py's mutants and
smtp.py's outcome sorting by this file.)"""

from __future__ import annotations

import json
import smtplib
import ssl

import pytest

from mlperf_report.core.errors import UserError
from mlperf_report.mail import sendlog
from mlperf_report.mail.smtp import classify

SHA = "a" * 64


def entry(status: str, recipient: str = "Ann@Example.org", message_id: str = "<1@x>", sha: str = SHA) -> dict:
    return {"status": status, "recipient": recipient, "message_id": message_id, "sha256": sha}


def test_log_lives_in_the_round_mail_folder(tmp_path):
    assert sendlog.log_path(tmp_path / "mail") == tmp_path / "mail" / "sent.jsonl"


def test_appended_entries_read_back_in_order_and_a_torn_line_is_ignored(tmp_path):
    path = tmp_path / "mail" / "sent.jsonl"  # the folder does not exist yet
    sendlog.append(path, entry(sendlog.SENDING))
    sendlog.append(path, {**entry(sendlog.SENT), "note": "délivré"})
    with open(path, "a", encoding="utf-8") as handle:
        handle.write('["a list, not an entry"]\n{"status": "sent", "recip')  # a crash mid-write
    entries = sendlog.read_entries(path)
    assert [e["status"] for e in entries] == ["sending", "sent"] and entries[1]["note"] == "délivré"
    lines = path.read_text(encoding="utf-8").splitlines()
    assert json.loads(lines[0]) == entry("sending") and list(json.loads(lines[0])) == sorted(entry("sending"))
    assert "délivré" in lines[1]  # written as text, not \\u escapes


def test_no_log_yet_means_nobody_has_it(tmp_path):
    assert sendlog.read_entries(tmp_path / "sent.jsonl") == []


def test_only_sent_entries_count_as_delivered_and_addresses_ignore_case():
    entries = [entry("sent"), entry("failed", "bob@example.org"), entry("sending", "cy@example.org"),
               entry("maybe_sent", "dee@example.org")]
    keys = sendlog.sent_keys(entries)
    assert keys == {("ann@example.org", SHA)}
    assert sendlog.already_sent(keys, "ANN@example.ORG", SHA)
    assert not sendlog.already_sent(keys, "ann@example.org", "b" * 64)  # a rebuilt report goes again
    assert not sendlog.already_sent(keys, "bob@example.org", SHA)


def test_a_message_handed_over_without_an_outcome_is_in_flight():
    entries = [entry("sending", "ann@example.org", "<1@x>"),
               entry("sending", "bob@example.org", "<2@x>"), entry("sent", "bob@example.org", "<2@x>"),
               entry("sending", "cy@example.org", "<3@x>"), entry("failed", "cy@example.org", "<3@x>"),
               entry("maybe_sent", "Dee@example.org", "<4@x>")]
    assert sendlog.in_flight_keys(entries) == {("ann@example.org", SHA), ("dee@example.org", SHA)}


def test_a_later_delivery_settles_an_earlier_message_in_flight():
    entries = [entry("sending", message_id="<1@x>"), entry("sending", message_id="<2@x>"),
               entry("sent", message_id="<2@x>")]
    assert sendlog.in_flight_keys(entries) == set()
    assert sendlog.in_flight_keys([entry("maybe_sent"), entry("sent", message_id="<9@x>")]) == set()


def test_a_second_send_of_the_same_round_is_refused_while_one_runs(tmp_path):
    path = tmp_path / "mail" / "sent.jsonl"
    with sendlog.exclusive(path):
        with pytest.raises(UserError, match="another `build.py send` is running"):
            with sendlog.exclusive(path):
                pass
    with sendlog.exclusive(path):  # released: the next send may go
        pass


def test_refused_recipients_are_retried_on_4xx_and_given_up_on_5xx():
    assert classify(smtplib.SMTPRecipientsRefused({"a@x": (450, b"mailbox busy")})) == ("transient", "450 mailbox busy")
    assert classify(smtplib.SMTPRecipientsRefused({"a@x": (550, b"no such user")})) == ("permanent", "550 no such user")
    assert classify(smtplib.SMTPRecipientsRefused({"a@x": (499, b"x")}))[0] == "transient"
    assert classify(smtplib.SMTPRecipientsRefused({"a@x": (400, b"x")}))[0] == "transient"
    assert classify(smtplib.SMTPRecipientsRefused({"a@x": (500, b"x")}))[0] == "permanent"
    assert classify(smtplib.SMTPRecipientsRefused({})) == ("permanent", "550 recipient refused")


def test_server_replies_sort_by_their_code():
    assert classify(smtplib.SMTPDataError(554, b"spam")) == ("permanent", "554 spam")
    assert classify(smtplib.SMTPDataError(451, "try later")) == ("transient", "451 try later")
    assert classify(smtplib.SMTPResponseException(500, b"x"))[0] == "permanent"
    assert classify(smtplib.SMTPResponseException(599, b"x"))[0] == "permanent"
    assert classify(smtplib.SMTPResponseException(600, b"x"))[0] == "transient"
    assert classify(smtplib.SMTPResponseException(499, b"x"))[0] == "transient"


def test_what_retrying_cannot_mend_is_fatal():
    assert classify(smtplib.SMTPAuthenticationError(535, b"bad password")) == ("fatal", "535 bad password")
    assert classify(smtplib.SMTPNotSupportedError("no AUTH")) == ("fatal", "no AUTH")
    kind, detail = classify(ssl.SSLError("certificate verify failed"))
    assert kind == "fatal" and detail.startswith("TLS failed: ")


def test_dropped_connections_and_socket_errors_are_retried():
    assert classify(smtplib.SMTPServerDisconnected("gone")) == ("transient", "connection dropped: gone")
    assert classify(smtplib.SMTPServerDisconnected()) == (
        "transient", "connection dropped: server closed the connection")
    assert classify(ConnectionResetError("reset")) == ("transient", "ConnectionResetError: reset")
    assert classify(ValueError("odd")) == ("permanent", "ValueError: odd")


def test_log_and_lock_create_the_whole_folder_path(tmp_path):
    """A first send of a round whose output folder does not exist yet (``output/<round>/mail/``)."""
    path = tmp_path / "output" / "training-v9.9" / "mail" / "sent.jsonl"
    with sendlog.exclusive(path):
        sendlog.append(path, entry("sent"))
    assert sendlog.sent_keys(sendlog.read_entries(path)) == {("ann@example.org", SHA)}
    other = tmp_path / "elsewhere" / "round" / "mail" / "sent.jsonl"
    with sendlog.exclusive(other):  # the lock alone, before anything was logged
        assert other.parent.is_dir()
    unlocked = tmp_path / "third" / "round" / "mail" / "sent.jsonl"
    sendlog.append(unlocked, entry("failed"))  # the log alone, without the lock that made the folder
    assert [e["status"] for e in sendlog.read_entries(unlocked)] == ["failed"]
