"""The assembling processes' fork server, forked from the build (``forked_server``): its processes
start with what the build had imported, and with nothing else of the build's (descriptors, signal
handlers); where it cannot be forked, multiprocessing's own server starts as before.

Each case runs in a Python of its own: a fork server is one per process, and a test runner's
threads rule the fork out."""

import json
import subprocess
import sys
import textwrap

import pytest

from mlperf_report.assemble import forked_server
from mlperf_report.core import paths

SCRIPT = textwrap.dedent("""
    import json, multiprocessing, os, signal, sys, tempfile, threading
    from concurrent.futures import ProcessPoolExecutor
    import colorsys  # what the build imported before the server: its processes have it
    from mlperf_report.assemble import forked_server

    if sys.argv[1] == "threaded":  # a second thread: no fork
        threading.Thread(target=threading.Event().wait, daemon=True).start()
    signal.signal(signal.SIGTERM, lambda *_: None)  # the build's own (processes.interrupt_on_sigterm)
    secret = tempfile.NamedTemporaryFile(prefix="build-only-")  # a descriptor of the build's own
    multiprocessing.get_context("forkserver").set_forkserver_preload(["json"])  # as report_pools.start_context does
    forked = forked_server.start(["json"])
    probe = ("(__import__('os').getppid(), 'colorsys' in __import__('sys').modules, 'json' in __import__('sys').modules,"
             " __import__('signal').getsignal(__import__('signal').SIGTERM) == __import__('signal').SIG_DFL,"
             " [__import__('os').path.realpath('/proc/self/fd/' + fd) for fd in __import__('os').listdir('/proc/self/fd')],"
             " open('/proc/self/comm').read().strip())")
    with ProcessPoolExecutor(2, mp_context=multiprocessing.get_context("forkserver")) as pool:
        seen = [pool.submit(eval, probe).result() for _ in range(4)]
    server = seen[0][0]
    with open(f"/proc/{server}/stat") as stat:
        server_parent = int(stat.read().rsplit(")", 1)[1].split()[1])
    with open(f"/proc/{server}/comm") as comm:
        names = {comm.read().strip(), *(s[5] for s in seen)}
    print(json.dumps({"forked": forked, "names": sorted(names), "build": os.getpid(), "server_parent": server_parent,
                      "parents": sorted({s[0] for s in seen}), "inherited": all(s[1] for s in seen),
                      "preloaded": all(s[2] for s in seen), "default_sigterm": all(s[3] for s in seen),
                      "secret_open": any(secret.name in link for s in seen for link in s[4])}))
""")


def _run(mode: str) -> dict:
    done = subprocess.run([sys.executable, "-c", SCRIPT, mode], cwd=paths.ROOT, capture_output=True, text=True,
                          timeout=120)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout.strip().splitlines()[-1])


@pytest.mark.skipif(not sys.platform.startswith("linux") or sys.version_info[:2] not in forked_server.CHECKED,
                    reason="the server is forked only on the Python versions it was checked with, on Linux")
def test_the_server_is_forked_from_the_build_and_keeps_only_what_it_imported():
    seen = _run("plain")
    assert seen["forked"]
    assert seen["server_parent"] == seen["build"] and seen["parents"] != [seen["build"]]
    assert len(seen["parents"]) == 1  # every process from the one server
    assert seen["inherited"] and seen["preloaded"]  # the build's imports, and the server's warm-up
    assert seen["default_sigterm"]  # not the build's handler: a stopped build's processes stop
    assert not seen["secret_open"]  # the build's descriptors closed, as a spawned server has them
    assert seen["names"] == [forked_server.PROCESS_NAME]  # what ps and top call the server and its processes


def test_with_a_second_thread_the_server_is_started_as_a_new_python():
    seen = _run("threaded")
    assert not seen["forked"]
    assert seen["server_parent"] == seen["build"]  # multiprocessing's own server, a child all the same
    assert not seen["inherited"] and seen["preloaded"]  # a new Python: only what it was told to import
    assert seen["default_sigterm"] and not seen["secret_open"]
    assert forked_server.PROCESS_NAME not in seen["names"]
