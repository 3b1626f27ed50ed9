"""MLCommons' energy arithmetic (``mlperf_logging.result_summarizer``'s ``_compute_power_node``,
``_compute_power_sw`` and ``_index_olympic_average``, as of mlperf-logging 4.1.68), transcribed: those
names are private to the summarizer, so ``power`` calls them only on the versions they were checked
with (``core.compat``) and this copy otherwise. A test holds the two to the same numbers.
"""

from __future__ import annotations


def power_node(loglines: list, time_to_train: float) -> float:
    """Joules of one node: its power readings integrated between the measurement's start and stop
    (the last reading when no stop is logged), times the conversion efficiency, scaled from the
    measured window to the time to train (ms)."""
    previous = last = start = stop = 0
    energy, efficiency = 0.0, 1.0
    started = stopped = False
    for line in sorted(loglines, key=lambda line: line.timestamp):
        if line.key == "power_measurement_start":
            start = previous = line.timestamp
            started = True
        if line.key == "power_reading" and not stopped and started:
            energy += line.value["value"] * (line.timestamp - previous)
            previous = line.timestamp
            last = max(last, line.timestamp)
        if line.key == "power_measurement_stop":
            stop, stopped = line.timestamp, True
        if line.key == "conversion_eff":
            efficiency = line.value["value"]
    if not started:
        raise ValueError("Power start timestamp not found")
    if not stopped:
        stop = last
    return efficiency * energy * time_to_train / (stop - start) / 1000


def power_switch(loglines: list, time_to_train: float) -> float:
    """Joules of one switch: its estimated interconnect power (the first logged) over the time to train."""
    power, efficiency = 0, 1.0
    for line in loglines:
        if line.key == "conversion_eff":
            efficiency = line.value["value"]
        if line.key == "interconnect_power_est":
            power = line.value["value"]
            break
    return efficiency * power * time_to_train / 1000


def index_olympic_average(scores: list, index: list, dropped: int, max_dropped: int) -> float | None:
    """The mean of ``scores`` ordered by ``index`` without the ``max_dropped`` first and last (the
    ``dropped`` already left out counting among the last); None when none remain."""
    ordered = [scores[i] for i in index]
    counted = ordered[max_dropped:len(scores) - (max_dropped - dropped)]
    return sum(counted) * 1.0 / len(counted) if counted else None
