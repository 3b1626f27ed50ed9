"""Small synthetic MLPerf Inference results trees for tests: LoadGen summaries in LoadGen's own layout,
accuracy.txt lines as the reference scripts print them, compliance verdicts and systems JSON files."""

from __future__ import annotations

import json
from pathlib import Path

from tests.trees import write

_HEAD = "================================================\nMLPerf Results Summary\n" \
        "================================================\n"


def summary(scenario: str, lines: list[str], valid: bool = True) -> str:
    """A LoadGen summary: the headline lines, the verdict with its constraints, and some stats."""
    verdict = "VALID" if valid else "INVALID"
    met = "Yes" if valid else "NO"
    return (_HEAD + f"SUT name : Acme-SUT\nScenario : {scenario}\nMode     : PerformanceOnly\n"
            + "\n".join(lines) + f"\nResult is : {verdict}\n"
            f"  Performance constraints satisfied : {met}\n  Min duration satisfied : Yes\n"
            "  Min queries satisfied : Yes\n  Early stopping satisfied: Yes\n"
            "\n================================================\nAdditional Stats\n"
            "================================================\nMin latency (ns)                : 1000\n"
            "\nNo errors encountered during test.\n")


OFFLINE = summary("Offline", ["Samples per second: 756960"])
SERVER = summary("Server", ["Completed samples per second    : 480131.10"]).replace(
    "Min latency", "Scheduled samples per second : 480136.99\nMin latency")
SINGLE = summary("SingleStream", ["90th percentile latency (ns) : 330000", "Early Stopping Result:",
                                  " * Processed at least 64 queries (1200000).",
                                  " * Early stopping 90th percentile estimate: 332412"])
MULTI = summary("MultiStream", ["99th percentile latency (ns) : 41984475", "Early Stopping Result:",
                                " * Early stopping 99th percentile estimate: 42019927"])
LLM_OFFLINE = summary("Offline", ["Samples per second: 107.477", "Tokens per second: 31302.7"])
LLM_SERVER = summary("Server", ["Completed samples per second    : 100.35", "Completed tokens per second: 29228.22"])
GPTJ_OFFLINE = summary("Offline", ["Samples per second: 144.446", "Tokens per second (inferred): 9966.79"])

RESNET_ACC = "accuracy=76.076%, good=38038, total=50000\nhash=85f2af\n"
RESNET_LOW = "accuracy=70.000%, good=35000, total=50000\nhash=85f2af\n"
LLAMA_ACC = ("{'rouge1': 44.7986, 'rouge2': 22.3, 'rougeL': 28.9, 'rougeLsum': 42.1, 'gen_len': 2, "
             "'gen_num': 24576, 'gen_tok_len': 7000000, 'tokens_per_sample': 288.1}\nhash=ab12\n")
GPTJ_ACC = "{'rouge1': 43.0, 'rouge2': 20.1, 'rougeL': 30.0, 'rougeLsum': 40.0, 'gen_len': 3967000, 'gen_num': 13368}\nhash=1\n"


def system(submitter="Acme", division="closed", name="Acme X8", system_type="datacenter", accelerators=8,
           status="available") -> str:
    return json.dumps({"submitter": submitter, "division": division, "status": status, "system_name": name,
                       "number_of_nodes": 1, "host_processors_per_node": 2,
                       "host_processor_model_name": "AMD EPYC 9374F", "accelerators_per_node": accelerators,
                       "accelerator_model_name": "Acme A1", "framework": "AcmeRT 1.0",
                       "system_type": system_type})


def detail_log(begin: str, end: str, queries: int | None = None, scenario: str | None = None) -> str:
    """A LoadGen detail log with the power marks (and the query count the streams need, and the
    scenario LoadGen ran where given)."""
    def line(key, value):
        return ':::MLLOG {"key": "%s", "value": %s, "time_ms": 1.0, "namespace": "mlperf::logging", ' \
               '"event_type": "POINT_IN_TIME", "metadata": {"is_error": false, "is_warning": false, ' \
               '"file": "loadgen.cc", "line_no": 1, "pid": 1, "tid": 1}}' % (key, json.dumps(value))
    lines = ["noise from the harness", *([line("effective_scenario", scenario)] if scenario else []),
             line("power_begin", begin)]
    if queries is not None:
        lines.append(line("result_query_count", queries))
    lines += [line("power_end", end), line("power_begin", "01-01-2000 00:00:00.000")]  # first value wins
    return "\n".join(lines) + "\n"


def spl(samples: list[tuple[str, float]]) -> str:
    """The analyzer's samples as PTDaemon writes them: ``Time,<stamp>,Watts,<w>,Volts,...``."""
    body = [f"Time,{stamp},Watts,{watts:.6f},Volts,230.0,Amps,1.0,PF,0.98,Mark,run_1" for stamp, watts in samples]
    return "\n".join(["Ranging done", *body]) + "\n"


def result(root: Path, division: str, org: str, sys_id: str, model: str, scenario: str, summary_text: str,
           accuracy_text: str | None, power: bool = False, tests: dict[str, str] | None = None,
           power_files: tuple[str, str] | None = None) -> None:
    """One result folder; ``power_files`` = (detail log, spl.txt) as full copies keep them."""
    base = f"{division}/{org}/results/{sys_id}/{model}/{scenario}"
    write(root, f"{base}/performance/run_1/mlperf_log_summary.txt", summary_text)
    if accuracy_text is not None:
        write(root, f"{base}/accuracy/accuracy.txt", accuracy_text)
    if power or power_files:
        write(root, f"{base}/performance/power/server.log", "ptd-server log\n")
    if power_files:
        write(root, f"{base}/performance/run_1/mlperf_log_detail.txt", power_files[0])
        write(root, f"{base}/performance/run_1/spl.txt", power_files[1])
    for test, verdict in (tests or {}).items():
        comp = f"{division}/{org}/compliance/{sys_id}/{model}/{scenario}/{test}"
        if test == "TEST06":
            write(root, f"{comp}/verify_accuracy.txt", verdict)
        else:
            write(root, f"{comp}/verify_performance.txt", f"Verifying performance.\n{verdict}\n")


PASS = {"TEST01": "TEST PASS", "TEST04": "TEST PASS", "TEST05": "TEST PASS"}
TEST06_PASS = {"TEST06": "First token check pass: Skipped\nEOS check pass: True\nSample length check pass: True\n"}


def inference_tree(root: Path) -> Path:
    """Acme (closed): x8 datacenter system with every scenario kind and the failures; Edgy (closed):
    a system in both categories; Open (open): a low-accuracy result that the open division allows."""
    top = root / "inference_results_v4.1"
    write(top, "closed/Acme/systems/x8.json", system())
    result(top, "closed", "Acme", "x8", "resnet50", "Offline", OFFLINE, RESNET_ACC, power=True, tests=PASS)
    result(top, "closed", "Acme", "x8", "resnet50", "Server", SERVER, RESNET_ACC, tests=PASS)
    result(top, "closed", "Acme", "x8", "llama2-70b-99", "Offline", LLM_OFFLINE, LLAMA_ACC, tests=TEST06_PASS)
    result(top, "closed", "Acme", "x8", "llama2-70b-99", "Server", LLM_SERVER, LLAMA_ACC, tests=TEST06_PASS)
    result(top, "closed", "Acme", "x8", "gptj-99", "Offline", GPTJ_OFFLINE, GPTJ_ACC)
    result(top, "closed", "Acme", "x8", "retinanet", "Offline", summary("Offline", ["Samples per second: 10"],
                                                                        valid=False), "mAP=37.3%\n", tests=PASS)
    result(top, "closed", "Acme", "x8", "bert-99", "Offline", summary("Offline", ["Samples per second: 20"]),
           "{\"exact_match\": 83.0, \"f1\": 90.2}\n", tests={"TEST01": "TEST PASS", "TEST05": "TEST FAIL"})
    result(top, "closed", "Acme", "x8", "dlrm-v2-99", "Offline", summary("Offline", ["Samples per second: 30"]),
           "AUC=70.0%\n", tests={"TEST01": "TEST PASS", "TEST05": "TEST PASS"})
    write(top, "closed/Edgy/systems/e1.json", system("Edgy", name="Edgy E1", system_type="datacenter,edge",
                                                     accelerators=1, status="preview"))
    result(top, "closed", "Edgy", "e1", "resnet50", "SingleStream", SINGLE, RESNET_ACC, power=True, tests=PASS)
    result(top, "closed", "Edgy", "e1", "resnet50", "MultiStream", MULTI, RESNET_ACC, tests=PASS)
    write(top, "open/Open/systems/o1.json", system("Open", division="open", name="Open O1"))
    result(top, "open", "Open", "o1", "resnet50", "offline", OFFLINE, RESNET_LOW)
    write(top, "closed/Acme/systems/.x8.json.swp", b"\x00swap")
    return top


BERT_ACC = "{\"exact_match\": 83.0, \"f1\": 90.2}\n"


def spellings_tree(root: Path) -> Path:
    """One company under two spellings (``DELL`` in one systems JSON, ``Dell`` in the other and in the
    results folder), one benchmark under two folder spellings (``resnet50``, ``resnet``), a second
    submitter, and an open-division variant of BERT (``...-bert-99``)."""
    top = root / "inference_results_v4.1"
    write(top, "closed/Dell/systems/xe8.json", system("DELL", name="PowerEdge XE8"))
    write(top, "closed/Dell/systems/r4.json", system("Dell", name="PowerEdge R4", accelerators=4))
    result(top, "closed", "Dell", "xe8", "resnet50", "Offline", OFFLINE, RESNET_ACC, tests=PASS)
    result(top, "closed", "Dell", "r4", "resnet", "Offline", summary("Offline", ["Samples per second: 300000"]),
           RESNET_ACC, tests=PASS)
    write(top, "closed/Acme/systems/x8.json", system())
    result(top, "closed", "Acme", "x8", "resnet", "Offline", summary("Offline", ["Samples per second: 500000"]),
           RESNET_ACC, tests=PASS)
    result(top, "closed", "Acme", "x8", "bert-99", "Offline", summary("Offline", ["Samples per second: 20"]),
           BERT_ACC, tests={"TEST01": "TEST PASS", "TEST05": "TEST PASS"})
    write(top, "open/Acme/systems/o1.json", system(division="open", name="Acme O1"))
    result(top, "open", "Acme", "o1", "bert-large-pruned80_quant-none-vnni-bert-99", "Offline",
           summary("Offline", ["Samples per second: 40"]), BERT_ACC)
    return top
