"""The batch's assembling processes: every report handed over is printed, however many are queued,
and the processes are renewed as they go (a queue of reports once left a pool with no process)."""

import os
from concurrent.futures import wait

from mlperf_report.assemble import report_pools


def test_a_long_queue_of_reports_all_finish_in_renewed_processes():
    with report_pools.RenewingPool(2, per_process=1) as pool:
        futures = [pool.submit(os.getpid) for _ in range(7)]  # four pools: 2 + 2 + 2 + 1
        done, waiting = wait(futures, timeout=120)
    assert not waiting, "reports left waiting: the pool ran out of processes"
    pids = {future.result() for future in futures}
    assert len(pids) >= 4  # each pool's processes are new ones
    assert os.getpid() not in pids


def test_the_stdlib_pool_queue_that_hung_is_not_how_reports_are_renewed():
    """``max_tasks_per_child`` on Python 3.11 can leave a pool with no process while reports wait
    (CPython issue 115634): the report pool must not use it."""
    pool = report_pools.report_pool(2)
    try:
        assert getattr(pool, "_max_tasks_per_child", None) is None
    finally:
        pool.shutdown()


def test_a_warm_pool_has_every_process_ready_before_the_first_report():
    """Started while the notebooks run, each process has already imported WeasyPrint and nbconvert,
    made the exporter and rehearsed a report: the first report does not wait for that."""
    with report_pools.warm_pool(2) as pool:
        ready = [pool.submit(eval, "(__import__('os').getpid(), 'weasyprint' in __import__('sys').modules, "
                                   "__import__('mlperf_report.assemble.sections', fromlist=['x'])"
                                   ".exporter.cache_info().currsize, __import__('mlperf_report.assemble.report_pools', "
                                   "fromlist=['x']).rehearse.cache_info().currsize)").result() for _ in range(4)]
    assert {tuple(state) for _, *state in ready} == {(True, 1, 1)}


def test_the_processes_are_forked_from_one_warm_server_not_from_the_build():
    """The warm-up is done once, in the fork server, and not in the build's own process (whose kernels
    and zmq threads a fork would copy); the processes are the server's children."""
    probe = "(__import__('os').getppid(), __import__('os').getpid(), '%s' in __import__('sys').modules)"
    with report_pools.report_pool(2) as pool:
        seen = [pool.submit(eval, probe % report_pools.FORK_SERVER).result() for _ in range(4)]
    parents = {parent for parent, _, _ in seen}
    assert len(parents) == 1 and os.getpid() not in parents
    assert all(warm for _, _, warm in seen)
    import sys

    assert report_pools.FORK_SERVER not in sys.modules  # the build itself never imported it


def test_a_step_that_fails_is_skipped_and_the_others_run(monkeypatch):
    done = []
    monkeypatch.setattr(report_pools, "_probe_step", lambda: done.append(1), raising=False)
    report_pools.warm_up((("no_such_module_for_the_report", ""), ("json", "loads"),
                          ("mlperf_report.assemble.report_pools", "_probe_step")))
    assert done == [1]


def test_a_warm_up_that_fails_leaves_the_report_to_say_why():
    """A step that fails while a process gets ready (WeasyPrint without Pango, say) must not break
    the pool with no reason given: the process stays, and the report's own error says why."""
    steps = (("no_such_module_for_the_report", ""), ("json", "loads"))  # an import and a call that fail
    with report_pools.warm_pool(1, warm_up=steps) as pool:
        ok = pool.submit(eval, "1 + 1").result()
        failed = pool.submit(eval, "__import__('no_such_module_for_the_report')").exception()
    assert ok == 2
    assert isinstance(failed, ModuleNotFoundError) and "no_such_module_for_the_report" in str(failed)
