"""The assembling processes' fork server forked from the build's own process, not started as a new Python.

``multiprocessing``'s fork server is a new Python that imports what it is told to (``fork_server``: the
warm-up) and forks every assembling process from itself. By the time a build starts it, the build has
already imported numpy, pandas and matplotlib for its kernels (``kernel_seed.preload``): a new Python
imported them again (0.5 s of CPU), and each assembling process then imported pandas for the kit's
charts (0.3 s each). Forked from the build once those are imported, the server starts with them and
pays only for what is its own (WeasyPrint, nbconvert, python-pptx, the rehearsals).

:func:`start` stands in for ``multiprocessing.forkserver.ForkServer.ensure_running``: the same listening
socket and "alive" pipe, the same ``forkserver.main`` loop and the same protocol with every process it
forks, so ``multiprocessing`` talks to it as to its own. Only the start differs: ``os.fork`` where
``ensure_running`` spawns. The child then becomes what a spawned server would be: every other file
descriptor closed (as ``spawnv_passfds`` closes them), default signal handlers (the build turns SIGTERM
into an interrupt, ``processes.interrupt_on_sigterm``), a fresh lock for the server's state and no
resource tracker of the build's own (each forked process is handed the tracker's descriptor, as
before), and it leaves with ``os._exit``, running none of the build's exit handlers.

It reaches into ``multiprocessing``'s private state (the server's address, "alive" descriptor, pid and
lock; the tracker's descriptor and pid), so it runs only on the Python versions it was checked with
(:data:`CHECKED`), on Linux, from a process with one thread (a fork copies only the calling thread);
anywhere else ``ensure_running`` starts the server as it always has.
"""

from __future__ import annotations

import os
import sys

#: (major, minor) Python versions whose ``multiprocessing.forkserver`` this was checked with.
CHECKED = ((3, 11),)
#: What ``ps`` and ``top`` call the server and the processes it forks (a spawned server shows
#: ``multiprocessing.forkserver`` in its command; a forked one has the build's command).
PROCESS_NAME = "mlperf-assemble"


def usable() -> bool:
    """The server can be forked from here: a checked CPython on Linux, one thread, a fork server
    start method, and no server started yet."""
    import multiprocessing
    import threading
    from multiprocessing import forkserver

    return (sys.platform.startswith("linux") and sys.implementation.name == "cpython"
            and sys.version_info[:2] in CHECKED and threading.active_count() == 1
            and "forkserver" in multiprocessing.get_all_start_methods()
            and getattr(forkserver._forkserver, "_forkserver_pid", 0) is None)


def start(preload: list[str]) -> bool:
    """Fork the fork server from this process, to import ``preload`` and serve; False (nothing done)
    where it cannot be (:func:`usable`): ``ensure_running`` then starts it when it is first needed."""
    if not usable():
        return False
    import socket
    from multiprocessing import connection, forkserver, resource_tracker, spawn, util

    server = forkserver._forkserver
    server.set_forkserver_preload(list(preload))
    resource_tracker.ensure_running()  # as ensure_running does: every forked process is handed its descriptor
    data = {key: value for key, value in spawn.get_preparation_data("ignore").items()
            if key in ("main_path", "sys_path")}
    with server._lock, socket.socket(socket.AF_UNIX) as listener:
        address = connection.arbitrary_address("AF_UNIX")
        listener.bind(address)
        if not util.is_abstract_socket_namespace(address):
            os.chmod(address, 0o600)
        listener.listen()
        alive_r, alive_w = os.pipe()
        try:
            pid = os.fork()
            if pid == 0:
                _serve(listener.fileno(), alive_r, alive_w, list(preload), data)  # never returns
        except BaseException:
            os.close(alive_w)
            raise
        finally:
            os.close(alive_r)
        server._forkserver_address = address
        server._forkserver_alive_fd = alive_w
        server._forkserver_pid = pid
    return True


def _serve(listener_fd: int, alive_r: int, alive_w: int, preload: list[str], data: dict) -> None:
    """In the forked child: become a fork server as a spawned one starts, and never return."""
    code = 1
    try:
        import threading
        from multiprocessing import forkserver, resource_tracker

        from mlperf_report.core import processes

        os.close(alive_w)
        processes.set_name(PROCESS_NAME)
        processes.as_new_process(keep={listener_fd, alive_r})
        forkserver._forkserver._lock = threading.Lock()  # the build held it while forking
        tracker = resource_tracker._resource_tracker
        tracker._lock, tracker._fd, tracker._pid = threading.RLock(), None, None
        forkserver.main(listener_fd, alive_r, preload, **data)  # returns by SystemExit when the build is gone
        code = 0
    except SystemExit as exit_:
        code = exit_.code if isinstance(exit_.code, int) else 0
    except BaseException:  # noqa: BLE001  (reported on stderr, as a spawned server's traceback would be)
        import traceback

        traceback.print_exc()
    finally:
        os._exit(code)
