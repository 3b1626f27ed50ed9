"""A real SMTP server on 127.0.0.1 (aiosmtpd) for the mail tests, with switches for the faults to test.

``MailServer`` records every accepted message; its knobs make it answer 451 to DATA a number of times,
refuse chosen recipients with 550, drop the connection (no reply at all) after RCPT, after its 354 to
DATA while the message is still coming in, or after the final dot, and require a login. The server
binds port 0 itself and reports the port the kernel gave it (no pick-a-port-then-bind race); its
sockets take in at most ``RCVBUF`` bytes unread, so a client writing a large message to a server
that stopped reading finds the connection gone before its final dot is written. ``self_signed`` makes a certificate for localhost so STARTTLS and implicit TLS are
tested for real, with certificate checking on.
"""

from __future__ import annotations

import datetime
import socket
import ssl
import threading
from dataclasses import dataclass, field
from email import message_from_bytes, policy
from pathlib import Path

from aiosmtpd.controller import Controller
from aiosmtpd.smtp import SMTP, AuthResult

HOST = "127.0.0.1"


RCVBUF = 64 * 1024  # the server's receive buffer: a fixed size turns off Linux's autotuning (up to 32 MiB)


def closed_port() -> socket.socket:
    """A loopback socket bound to a port the kernel chose and not listening: connecting to
    ``sock.getsockname()[1]`` is refused for as long as the socket is open (nobody else can take it)."""
    sock = socket.socket()
    sock.bind((HOST, 0))
    return sock


def self_signed(folder: Path) -> tuple[Path, Path]:
    """(certificate, key) PEM files for ``localhost`` / 127.0.0.1, valid for a day."""
    import ipaddress

    from cryptography import x509
    from cryptography.hazmat.primitives import hashes, serialization
    from cryptography.hazmat.primitives.asymmetric import ec
    from cryptography.x509.oid import NameOID

    key = ec.generate_private_key(ec.SECP256R1())
    name = x509.Name([x509.NameAttribute(NameOID.COMMON_NAME, "localhost")])
    now = datetime.datetime.now(datetime.timezone.utc)
    cert = (
        x509.CertificateBuilder().subject_name(name).issuer_name(name).public_key(key.public_key())
        .serial_number(x509.random_serial_number())
        .not_valid_before(now - datetime.timedelta(minutes=5)).not_valid_after(now + datetime.timedelta(days=1))
        .add_extension(x509.SubjectAlternativeName([x509.DNSName("localhost"),
                                                    x509.IPAddress(ipaddress.ip_address(HOST))]), critical=False)
        .add_extension(x509.BasicConstraints(ca=True, path_length=None), critical=True)
        .sign(key, hashes.SHA256())
    )
    cert_path, key_path = folder / "cert.pem", folder / "key.pem"
    cert_path.write_bytes(cert.public_bytes(serialization.Encoding.PEM))
    key_path.write_bytes(key.private_bytes(serialization.Encoding.PEM, serialization.PrivateFormat.PKCS8,
                                           serialization.NoEncryption()))
    return cert_path, key_path


def server_context(cert: Path, key: Path) -> ssl.SSLContext:
    context = ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER)
    context.load_cert_chain(cert, key)
    return context


@dataclass
class Received:
    mail_from: str
    rcpt_tos: list[str]
    data: bytes

    @property
    def message(self):
        return message_from_bytes(self.data, policy=policy.default)


@dataclass
class MailServer:
    """aiosmtpd handler: records what it accepts, misbehaves as told."""

    temp_fail_data: int = 0                 # answer 451 to this many DATA commands first
    drop_after_rcpt: int = 0                # drop the connection instead of answering this many RCPT
    drop_in_data: int = 0                   # answer 354 to this many DATA, read one line, drop the connection
    drop_after_data: int = 0                # drop the connection after this many final dots (message discarded)
    keep_dropped: bool = False              # ... but keep the message: the reply is what gets lost
    hang_after_data: float = 0.0            # keep the message, then wait this long before answering
    reject: set[str] = field(default_factory=set)  # RCPT TO these gets 550
    login: tuple[str, str] | None = None    # (user, password) the server accepts, when login is required
    received: list[Received] = field(default_factory=list)
    data_commands: int = 0
    auth_attempts: int = 0
    _lock: threading.Lock = field(default_factory=threading.Lock)

    async def handle_RCPT(self, server, session, envelope, address, rcpt_options):
        with self._lock:
            if self.drop_after_rcpt > 0:
                self.drop_after_rcpt -= 1
                server.transport.abort()
                return "250 OK (never seen: the connection is gone)"
        if address.lower() in self.reject:
            return "550 5.1.1 <%s>: mailbox unavailable" % address
        envelope.rcpt_tos.append(address)
        return "250 OK"

    async def handle_DATA(self, server, session, envelope):
        with self._lock:
            self.data_commands += 1
            if self.temp_fail_data > 0:
                self.temp_fail_data -= 1
                return "451 4.3.0 Temporary failure, try again later"
            if self.drop_after_data > 0:
                self.drop_after_data -= 1
                if self.keep_dropped:
                    self.received.append(Received(envelope.mail_from, list(envelope.rcpt_tos),
                                                  bytes(envelope.content)))
                server.transport.abort()
                return "250 OK (never seen: the connection is gone)"
            self.received.append(Received(envelope.mail_from, list(envelope.rcpt_tos), bytes(envelope.content)))
        if self.hang_after_data:
            import asyncio

            await asyncio.sleep(self.hang_after_data)
        return "250 OK"

    def authenticate(self, server, session, envelope, mechanism, auth_data):
        self.auth_attempts += 1
        ok = self.login is not None and (auth_data.login, auth_data.password) == tuple(
            s.encode() for s in self.login)
        return AuthResult(success=ok, handled=False)

    def by_recipient(self) -> dict[str, list[Received]]:
        result: dict[str, list[Received]] = {}
        for item in self.received:
            for rcpt in item.rcpt_tos:
                result.setdefault(rcpt.lower(), []).append(item)
        return result


class _Smtp(SMTP):
    """aiosmtpd's server with one more fault: dropping the connection in the middle of DATA."""

    async def smtp_DATA(self, arg):
        handler = self.event_handler
        with handler._lock:
            drop = handler.drop_in_data > 0 and bool(self.envelope and self.envelope.rcpt_tos) and not arg
            if drop:
                handler.drop_in_data -= 1
                handler.data_commands += 1
        if not drop:
            return await super().smtp_DATA(arg)
        await self.push("354 End data with <CR><LF>.<CR><LF>")
        await self._reader.readuntil(b"\r\n")  # the message has started coming in ...
        self.transport.abort()                   # ... and the connection is gone, no reply


class _Controller(Controller):
    """Binds port 0 itself and keeps the socket it bound: ``port`` is the kernel's choice."""

    def factory(self):
        return _Smtp(self.handler, **self.SMTP_kwargs)

    def _create_server(self):
        sock = socket.socket()
        sock.setsockopt(socket.SOL_SOCKET, socket.SO_RCVBUF, RCVBUF)  # inherited by accepted sockets
        sock.bind((HOST, 0))
        self.port = sock.getsockname()[1]
        return self.loop.create_server(self._factory_invoker, sock=sock, ssl=self.ssl_context)


def start(handler: MailServer, *, starttls: ssl.SSLContext | None = None,
          implicit_tls: ssl.SSLContext | None = None) -> Controller:
    """Start the server on a loopback port it binds itself; ``controller.port`` says where. Stop with ``.stop()``."""
    kwargs = dict(hostname=HOST, port=0, ready_timeout=5, timeout=10)
    if handler.login is not None:
        kwargs.update(authenticator=handler.authenticate, auth_required=True,
                      auth_require_tls=bool(starttls or implicit_tls))
    if starttls is not None:
        kwargs.update(tls_context=starttls, require_starttls=True)
    if implicit_tls is not None:
        kwargs.update(ssl_context=implicit_tls)
    controller = _Controller(handler, **kwargs)
    controller.start()
    return controller


# --- a small project tree: config, data tables, built reports and figures, all under tmp_path ---

ROUND = "training-v1.0"
PASSWORD = "s3cr3t-Pa55word-!x"


def tiny_pdf(text: str, padding: int = 0) -> bytes:
    """A valid one-page PDF showing ``text`` (ASCII), with a correct cross-reference table
    (``padding`` bytes of comment make it as large as a test needs)."""
    stream = f"BT /F1 18 Tf 72 720 Td ({text}) Tj ET".encode()
    objects = [
        b"<< /Type /Catalog /Pages 2 0 R >>",
        b"<< /Type /Pages /Kids [3 0 R] /Count 1 >>",
        b"<< /Type /Page /Parent 2 0 R /MediaBox [0 0 612 792] /Contents 4 0 R "
        b"/Resources << /Font << /F1 5 0 R >> >> >>",
        b"<< /Length %d >>\nstream\n" % len(stream) + stream + b"\nendstream",
        b"<< /Type /Font /Subtype /Type1 /BaseFont /Helvetica >>",
    ]
    out = bytearray(b"%PDF-1.4\n")
    out += b"".join(b"%" + b"x" * 1022 + b"\n" for _ in range(padding // 1024))
    offsets = []
    for number, body in enumerate(objects, 1):
        offsets.append(len(out))
        out += b"%d 0 obj\n" % number + body + b"\nendobj\n"
    xref = len(out)
    out += b"xref\n0 %d\n0000000000 65535 f \n" % (len(objects) + 1)
    out += b"".join(b"%010d 00000 n \n" % offset for offset in offsets)
    out += b"trailer\n<< /Size %d /Root 1 0 R >>\nstartxref\n%d\n%%%%EOF\n" % (len(objects) + 1, xref)
    return bytes(out)


FIGURES = {
    "round": ROUND, "benchmark": "resnet", "benchmark_title": "Image Classification (ResNet-50 v1.5)",
    "benchmark_model": "ResNet-50 v1.5", "focus_submitter": "Graphcore",
    "fastest": {"closed": None, "open": None},
    "focus": {"closed": [{"submitter": "Graphcore", "system_id": "pod16", "system_name": "IPU-POD16",
                          "display_name": "Graphcore IPU-POD16", "division": "closed", "minutes": 28.33617}],
              "open": []},
    "baseline": {"submitter": "NVIDIA", "system_id": "dgxa100", "display_name": "NVIDIA DGX A100",
                 "division": "closed", "minutes": 28.77},
    "perf_per_dollar": [{"system": {"display_name": "Graphcore IPU-POD16"}, "ratio": 1.6043,
                         "price": {"amount": 149995, "currency": "USD"}, "division": "closed"}],
    "previous_round": {"round": "training-v0.7", "focus_best": None, "this_best": None, "speedup": None},
    "unscored": [],
}


def make_project(root: Path, *, smtp: dict | None = None) -> dict:
    """Config, data and a built round under ``root``; returns the paths send_reports takes."""
    import json
    import os

    import yaml

    config = {
        "title": {"en": "MLPerf Training results", "zh-Hant": "MLPerf Training 測試結果"}, "round": ROUND, "focus_submitter": "Graphcore",
        "languages": ["en", "zh-Hant"],
        "source": {"url": "https://github.com/mlcommons/training_results_v1.0", "retrieved": "2021-06-30"},
        "mail": {
            "sender": "MLPerf report <mlperf-report@example.com>",
            "smtp": smtp or {"host": HOST, "port": 25, "security": "none", "timeout": 5},
            "lists": {
                "executives": [{"name": "Executive Team", "email": "executives@example.com", "lang": "en"}],
                "press": [{"name": "Press Office", "email": "press@example.com", "lang": "en"},
                          {"name": "台灣新聞聯絡人", "email": "press-tw@example.com", "lang": "zh-Hant"},
                          {"name": "Sales", "email": "sales@example.com", "lang": "en"}],
            },
            "default_list": "executives",
        },
    }
    config_path = root / "report.yaml"
    config_path.write_text(yaml.safe_dump(config, allow_unicode=True), encoding="utf-8")
    data_dir = root / "data"
    (data_dir / ROUND).mkdir(parents=True)
    (data_dir / ROUND / "results.csv").write_text("submitter,system_id,benchmark,minutes\n", encoding="utf-8")
    (data_dir / "prices.yaml").write_text("systems: []\n", encoding="utf-8")
    output_dir = root / "output"
    round_dir = output_dir / ROUND
    (round_dir / "figures").mkdir(parents=True)
    (round_dir / "figures" / "resnet.json").write_text(json.dumps(FIGURES), encoding="utf-8")
    reports = {"en": tiny_pdf("MLPerf report en"), "zh-Hant": tiny_pdf("MLPerf report zh-Hant")}
    for lang, pdf in reports.items():
        (round_dir / f"report.{lang}.pdf").write_bytes(pdf)
    (round_dir / "report.pdf").write_bytes(reports["en"])
    past = datetime.datetime.now().timestamp() - 3600
    for path in [config_path, data_dir / ROUND / "results.csv", data_dir / "prices.yaml"]:
        os.utime(path, (past, past))
    return {"config_path": config_path, "data_dir": data_dir, "output_dir": output_dir,
            "round_dir": round_dir, "reports": reports}


from mlperf_report.mail.smtp import Retry  # noqa: E402

FAST = Retry(attempts=3, backoff=0.01)  # tiny backoff: fault tests take milliseconds


def send(project, port, environ=None, retry=None, **options):
    """``send_reports`` against a local server on ``port`` over plain SMTP (loopback only)."""
    from mlperf_report.mail import outbox

    environ = {"SMTP_HOST": HOST, "SMTP_PORT": str(port), "SMTP_SECURITY": "none", **(environ or {})}
    return outbox.send_reports(round_id=ROUND, config_path=project["config_path"],
                               data_dir=project["data_dir"], output_dir=project["output_dir"],
                               environ=environ, retry=retry or FAST, **options)


def log_entries(project):
    """The outcome lines of the send log (each follows its ``sending`` line)."""
    from mlperf_report.mail import sendlog

    entries = sendlog.read_entries(project["round_dir"] / "mail" / "sent.jsonl")
    return [e for e in entries if e["status"] != sendlog.SENDING]
