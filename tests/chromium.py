"""Drive Debian's headless Chromium over the DevTools protocol on a pipe, with the stdlib only.

``--remote-debugging-pipe`` makes Chromium read NUL-terminated JSON commands on fd 3 and write
replies and events on fd 4: no port, no websocket library, no browser download. The tests use it to
load a report, record every console message and network request, inspect the images and save a
screenshot.
"""

from __future__ import annotations

import base64
import fcntl
import json
import os
import queue
import shutil
import subprocess
import tempfile
import threading
import time
from pathlib import Path

CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")

FLAGS = (
    "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
    "--disable-background-networking", "--disable-component-update", "--disable-sync",
    "--disable-dev-shm-usage", "--hide-scrollbars", "--mute-audio", "--remote-debugging-pipe",
)


def available() -> str | None:
    """Path of the chromium binary, or None when it is not installed."""
    return CHROMIUM if os.access(CHROMIUM, os.X_OK) else shutil.which("chromium")


class ProtocolError(RuntimeError):
    """Chromium answered a command with an error, or did not answer in time."""


class Chromium:
    """One headless browser with one page; use as a context manager."""

    def __init__(self, binary: str | None = None, timeout: float = 60.0):
        self.binary = binary or available()
        self.timeout = timeout
        self.events: list[dict] = []
        self._replies: dict[int, dict] = {}
        self._cond = threading.Condition()
        self._next_id = 0
        self._session: str | None = None
        self._closed = False

    def __enter__(self) -> "Chromium":
        self._profile = tempfile.mkdtemp(prefix="chromium-profile-")
        commands_read, self._commands = os.pipe()
        self._replies_fd, replies_write = os.pipe()

        def wire_pipes():  # in the child, before exec: fd 3 = commands in, fd 4 = replies out
            high_read = fcntl.fcntl(commands_read, fcntl.F_DUPFD, 10)  # out of the way of 3 and 4 first
            high_write = fcntl.fcntl(replies_write, fcntl.F_DUPFD, 10)
            os.dup2(high_read, 3)
            os.dup2(high_write, 4)

        self.process = subprocess.Popen(
            [self.binary, *FLAGS, f"--user-data-dir={self._profile}", "about:blank"],
            stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
            preexec_fn=wire_pipes, close_fds=False,
        )
        os.close(commands_read)
        os.close(replies_write)
        self._stderr: "queue.Queue[bytes]" = queue.Queue()
        threading.Thread(target=self._read_replies, daemon=True).start()
        threading.Thread(target=lambda: self._stderr.put(self.process.stderr.read()), daemon=True).start()
        target = self.call("Target.createTarget", url="about:blank")["targetId"]
        self._session = self.call("Target.attachToTarget", targetId=target, flatten=True)["sessionId"]
        for domain in ("Page", "Runtime", "Log", "Network"):
            self.call(f"{domain}.enable")
        return self

    def __exit__(self, *exc) -> None:
        try:
            if self.process.poll() is None:
                self._session = None
                self.call("Browser.close", timeout=10)
        except (ProtocolError, OSError):
            pass
        finally:
            try:
                self.process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait()
            os.close(self._commands)
            shutil.rmtree(self._profile, ignore_errors=True)

    # --- protocol ---------------------------------------------------------------------------------------

    def _read_replies(self) -> None:
        buffer = b""
        with os.fdopen(self._replies_fd, "rb", buffering=0) as stream:
            while chunk := stream.read(1 << 16):
                buffer += chunk
                *messages, buffer = buffer.split(b"\0")
                for raw in messages:
                    message = json.loads(raw)
                    with self._cond:
                        if "id" in message:
                            self._replies[message["id"]] = message
                        else:
                            self.events.append(message)
                        self._cond.notify_all()
        with self._cond:
            self._closed = True
            self._cond.notify_all()

    def call(self, method: str, timeout: float | None = None, **params) -> dict:
        """Send one command (to the page's session once attached) and wait for its reply."""
        self._next_id += 1
        message = {"id": self._next_id, "method": method, "params": params}
        if self._session and not method.startswith(("Target.", "Browser.")):
            message["sessionId"] = self._session
        os.write(self._commands, json.dumps(message).encode() + b"\0")
        deadline = time.monotonic() + (timeout or self.timeout)
        with self._cond:
            while self._next_id not in self._replies:
                left = deadline - time.monotonic()
                if left <= 0 or self._closed:
                    raise ProtocolError(f"{method}: no reply from chromium ({self._stderr_tail()})")
                self._cond.wait(left)
            reply = self._replies.pop(self._next_id)
        if "error" in reply:
            raise ProtocolError(f"{method}: {reply['error']}")
        return reply.get("result", {})

    def wait_event(self, method: str, timeout: float | None = None) -> dict:
        """Wait for the first event ``method`` not yet waited for."""
        deadline = time.monotonic() + (timeout or self.timeout)
        with self._cond:
            while True:
                for event in self.events:
                    if event["method"] == method and not event.get("_seen"):
                        event["_seen"] = True
                        return event
                left = deadline - time.monotonic()
                if left <= 0:
                    raise ProtocolError(f"no {method} event from chromium within the timeout")
                self._cond.wait(left)

    def _stderr_tail(self) -> str:
        try:
            return self._stderr.get_nowait().decode(errors="replace")[-500:]
        except queue.Empty:
            return "still running" if self.process.poll() is None else f"exited {self.process.returncode}"

    # --- what the tests use -----------------------------------------------------------------------------

    def open(self, url: str, *, width: int = 1280, height: int = 900) -> None:
        """Load ``url`` at a viewport size (a phone below 600 px) and wait for the load event."""
        self.call("Emulation.setDeviceMetricsOverride", width=width, height=height, deviceScaleFactor=1,
                  mobile=width < 600)
        self.call("Page.navigate", url=url)
        self.wait_event("Page.loadEventFired")

    def evaluate(self, expression: str):
        """Value of a JavaScript expression (promises awaited); page exceptions raise."""
        result = self.call("Runtime.evaluate", expression=expression, awaitPromise=True, returnByValue=True)
        if "exceptionDetails" in result:
            raise ProtocolError(f"page script failed: {result['exceptionDetails']}")
        return result["result"].get("value")

    def screenshot(self, path: Path, *, max_height: int = 4000) -> Path:
        """PNG of the page from the top, as tall as its content (up to ``max_height`` px)."""
        metrics = self.call("Page.getLayoutMetrics")
        size = metrics.get("cssContentSize") or metrics["contentSize"]
        viewport = metrics.get("cssLayoutViewport") or metrics["layoutViewport"]
        clip = {"x": 0, "y": 0, "width": viewport["clientWidth"], "height": min(size["height"], max_height),
                "scale": 1}
        data = self.call("Page.captureScreenshot", format="png", clip=clip, captureBeyondViewport=True)["data"]
        path.parent.mkdir(parents=True, exist_ok=True)
        path.write_bytes(base64.b64decode(data))
        return path

    def console_errors(self) -> list[str]:
        """Console errors, uncaught exceptions and browser log errors seen so far."""
        errors = []
        for event in list(self.events):
            method, params = event["method"], event.get("params", {})
            if method == "Runtime.consoleAPICalled" and params.get("type") in ("error", "assert"):
                errors.append(" ".join(str(arg.get("value", arg.get("description", ""))) for arg in params["args"]))
            elif method == "Runtime.exceptionThrown":
                errors.append(params["exceptionDetails"].get("text", "exception"))
            elif method == "Log.entryAdded" and params["entry"].get("level") == "error":
                errors.append(f"{params['entry'].get('source')}: {params['entry'].get('text')} {params['entry'].get('url', '')}")
        return errors

    def requests(self) -> list[str]:
        """URL of every request the page made so far."""
        return [event["params"]["request"]["url"] for event in list(self.events)
                if event["method"] == "Network.requestWillBeSent"]
