"""A worker's kernel started from a copy of a process that has already imported what kernels import.

A kernel is a new Python that imports ipykernel and then, as it starts (``papermill_engine.PRELOAD``),
numpy, pandas, matplotlib, seaborn and the shared chart modules: 0.85 s of CPU, paid by each of a
build's kernels. Instead the build's process imports them once (:func:`preload`) before it forks its
notebook workers, and each worker forks a *seed* at once (:func:`plant`): a copy of itself, in a
session of its own (the process group jupyter_client signals), that waits for the one thing it will
do, become that worker's kernel. When jupyter_client launches the worker's kernel, the command goes
to the seed instead of to a new Python (:func:`_launch`, standing in for ``launch_kernel`` in
jupyter_client's local provisioner, in the worker only); the seed takes the kernel's arguments,
environment and working directory and runs ipykernel's own application with them. The kernel
imports nothing it already has; its start-up code runs as always.

The seed is forked while the worker is still one thread, before any event loop, zmq context or
kernel exists; it keeps only its standard streams and its request pipe (everything else the worker
holds is closed, as ``Popen`` closes it), freezes what it inherited out of the collector's reach (no
finaliser of the worker's objects ever runs there) and leaves with ``os._exit``. It dies with its
worker (``PR_SET_PDEATHSIG``), and ipykernel's own parent poller watches the worker as for any kernel.

Used once: a second kernel of the same worker (the first died), a ``--fresh-kernels`` build, another
command, a platform without ``fork``, or a jupyter_client or ipykernel other than the ones this was
checked with (:data:`CHECKED`) get jupyter_client's own launch, a new Python as before. A seeded
kernel carries ``MLPERF_REPORT_SEEDED_KERNEL=1`` in its environment (the tests look for it).
"""

from __future__ import annotations

import json
import os
import signal
import sys
import time

#: (jupyter_client, ipykernel) versions the launch below was checked with.
CHECKED = (("8.10.0", "7.4.0"),)
#: Set in a seeded kernel's environment.
MARK = "MLPERF_REPORT_SEEDED_KERNEL"
#: What kernels share with the build's assembling processes (the kit's charts, the workbook's tables):
#: imported first, before the assembling processes' fork server is forked from the build
#: (``assemble.forked_server``), and before papermill (0.25 s) and the kernels' own imports.
SHARED = ("numpy", "pandas", "matplotlib.figure", "matplotlib.backends.backend_agg", "matplotlib.backends.backend_svg")

_SEED: dict = {}  # in a worker: pid and request pipe of its seed, until used
_INHERITED: list = []  # in a seed: what it must never finalise (see _grow)


def usable() -> bool:
    """Seeds can be used here: a POSIX fork, and the jupyter_client and ipykernel checked."""
    if not hasattr(os, "fork") or not sys.platform.startswith("linux"):
        return False
    from importlib.metadata import PackageNotFoundError, version

    try:
        return (version("jupyter_client"), version("ipykernel")) in CHECKED
    except PackageNotFoundError:
        return False


def preload(modules: tuple[str, ...], *, kernel: bool = True) -> None:
    """Import what every kernel imports in this process (the build's), before the workers are forked
    from it, as a kernel would: matplotlib with ipykernel's default backend, seaborn without SciPy
    (which only the kernels go without: SciPy stays importable here). A module that fails to
    import is left to the kernel, which reports it as it always has. ``kernel``: ipykernel too
    (False: only ``modules``, what other processes forked from here share with the kernels)."""
    import importlib

    backend = os.environ.get("MPLBACKEND")
    os.environ.setdefault("MPLBACKEND", "module://matplotlib_inline.backend_inline")
    blocked = "scipy" not in sys.modules
    if blocked:
        sys.modules["scipy"] = None  # type: ignore[assignment]
    try:
        for name in (*(("ipykernel.kernelapp", "ipykernel.ipkernel") if kernel else ()), *modules):
            try:
                importlib.import_module(name)
            except Exception:  # noqa: BLE001  (the kernel's start-up reports it)
                continue
    finally:
        if blocked and sys.modules.get("scipy", 0) is None:
            del sys.modules["scipy"]
        if backend is None:
            os.environ.pop("MPLBACKEND", None)


def plant() -> None:
    """In a freshly started worker: fork its seed, and hand the worker's first kernel launch to it."""
    reading, writing = os.pipe()
    worker = os.getpid()
    pid = os.fork()
    if pid == 0:
        os.close(writing)
        _grow(reading, worker)  # never returns
    os.close(reading)
    _SEED.update(pid=pid, pipe=writing)
    from jupyter_client.provisioning import local_provisioner

    local_provisioner.launch_kernel = _launching(local_provisioner.launch_kernel)


def _launching(original):
    """``launch_kernel`` of jupyter_client's local provisioner: the first ipykernel launch to the seed."""

    def launch_kernel(cmd, stdin=None, stdout=None, stderr=None, env=None, independent=False, cwd=None, **kw):
        arguments = _kernel_arguments(cmd)
        if arguments is None or not _SEED or stdout is not None or stderr is not None or independent:
            return original(cmd, stdin=stdin, stdout=stdout, stderr=stderr, env=env, independent=independent,
                            cwd=cwd, **kw)
        seed = dict(_SEED)
        _SEED.clear()
        environment = dict(os.environ if env is None else env, JPY_PARENT_PID=str(os.getpid()), **{MARK: "1"})
        # ipykernel reads JPY_PARENT_PID when imported (in the build's process, before any worker): its
        # parent, whom its poller watches and who keeps it quiet on the terminal, is given as an argument
        arguments = [*arguments, f"--IPKernelApp.parent_handle={os.getpid()}"]
        request = json.dumps({"argv": arguments, "env": environment, "cwd": str(cwd or os.getcwd())}).encode()
        try:
            while request:
                request = request[os.write(seed["pipe"], request):]
        finally:
            os.close(seed["pipe"])  # the end of the request
        return Seeded(seed["pid"])

    return launch_kernel


def _kernel_arguments(cmd) -> list[str] | None:
    """The arguments after ``python -m ipykernel_launcher`` when ``cmd`` starts this Python's
    ipykernel (the flags between are the interpreter's: already in force in the seed), else None."""
    cmd = [str(part) for part in cmd]
    if not cmd or os.path.realpath(cmd[0]) != os.path.realpath(sys.executable):
        return None
    for i in range(1, len(cmd) - 1):
        if cmd[i] == "-m" and cmd[i + 1] == "ipykernel_launcher":
            return cmd[i + 2:]
    return None


def _grow(reading: int, worker: int) -> None:
    """The seed: wait for the kernel's arguments, then be the kernel; exit without the worker's
    clean-up, whatever happens (a request of nothing: the worker never needed a kernel)."""
    code, errors = 1, 2
    try:
        os.setsid()
        from mlperf_report.core import processes

        processes.die_with_parent()
        if os.getppid() != worker:  # the worker died before the request to die with it took hold
            return
        # the standard streams as the descriptors a new Python would have: under a harness (pytest's
        # capture) they are files on descriptors closed below, which the kernel's sockets could reuse
        sys.stdout = open(1, "w", buffering=1, encoding="utf-8", errors="backslashreplace", closefd=False)
        sys.stderr = open(2, "w", buffering=1, encoding="utf-8", errors="backslashreplace", closefd=False)
        import asyncio
        import gc

        gc.freeze()  # the worker's objects: never collected here, so none closes what it held
        # an event loop the build's process had (a harness's) is the worker's too: its selector
        # belongs to them, so the kernel starts with loops of its own; the old ones are kept
        # referenced, or their finalisers would close descriptor numbers the kernel may own by then
        _INHERITED.append(asyncio.get_event_loop_policy())
        asyncio.set_event_loop_policy(None)
        processes.as_new_process(keep={reading})
        errors = os.dup(2)  # the kernel's log, which ipykernel's own capture of stderr does not reach
        request = _read_all(reading)
        if not request:
            code = 0
            return
        _become_kernel(json.loads(request))
        code = 0
    except SystemExit as done:
        code = done.code if isinstance(done.code, int) else 0
    except BaseException:  # noqa: BLE001  (reported on the kernel's log, as a failed start would be)
        import traceback

        os.write(errors, traceback.format_exc().encode(errors="backslashreplace"))
    finally:
        os._exit(code)


def _read_all(fd: int) -> bytes:
    chunks = []
    while chunk := os.read(fd, 1 << 16):
        chunks.append(chunk)
    os.close(fd)
    return b"".join(chunks)


def _become_kernel(request: dict) -> None:
    """ipykernel's application with the launch's arguments, environment and directory, stdin
    nothing (jupyter_client gives a kernel an empty pipe)."""
    null = os.open(os.devnull, os.O_RDONLY)
    os.dup2(null, 0)
    os.close(null)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = [sys.executable, "-m", "ipykernel_launcher", *request["argv"]]
    from ipykernel.kernelapp import IPKernelApp

    IPKernelApp.launch_instance(argv=request["argv"])


class Seeded:
    """The seeded kernel as jupyter_client's provisioner sees a ``Popen``: its pid, poll, wait,
    signals. It is the worker's child, so the worker reaps it."""

    stdin = stdout = stderr = None

    def __init__(self, pid: int):
        self.pid, self.returncode = pid, None

    def poll(self) -> int | None:
        if self.returncode is None:
            try:
                done, status = os.waitpid(self.pid, os.WNOHANG)
            except ChildProcessError:  # reaped already
                self.returncode = 0
            else:
                if done:
                    self.returncode = os.waitstatus_to_exitcode(status)
        return self.returncode

    def wait(self, timeout: float | None = None) -> int:
        started = time.monotonic()
        while self.poll() is None:
            if timeout is not None and time.monotonic() - started > timeout:
                import subprocess

                raise subprocess.TimeoutExpired(f"kernel {self.pid}", timeout)
            time.sleep(0.02)
        return self.returncode  # type: ignore[return-value]

    def send_signal(self, number: int) -> None:
        if self.poll() is None:
            try:
                os.kill(self.pid, number)
            except ProcessLookupError:
                pass

    def terminate(self) -> None:
        self.send_signal(signal.SIGTERM)

    def kill(self) -> None:
        self.send_signal(signal.SIGKILL)
