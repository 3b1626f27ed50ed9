"""The checker's stand-ins (rule files parsed once, rule expressions compiled once) change nothing the
checker says: the same verdicts and failed checks as the checker left as it is, on passing and failing
logs of several rulesets; ``eval`` / ``exec`` behave as the built-ins; parsed rules are never shared."""

from __future__ import annotations

import pytest
import yaml
from mlperf_logging.compliance_checker import mlp_compliance

from mlperf_report.suites.training import checker_speed, compliance
from trees import compliant_log, mllog

T0 = 1_600_000_000_000


def logs(benchmark: str) -> list[str]:
    good = compliant_log(10.0, benchmark=benchmark, division="closed")
    return [
        good,
        compliant_log(10.0, benchmark=benchmark, init_minutes=45.0),   # initialisation over its limit
        compliant_log(10.0, benchmark=benchmark, accuracy=0.1),        # below the quality target
        good.replace('"submission_org"', '"submission_orgx"'),         # a required key missing
        good.replace('"epoch_num": 1', '"epoch_num": "one"', 1),       # a value of the wrong type
        good + ':::MLLOG {"namespace": "", "time_ms": 1, "event_type": "POINT", "key": "run_stop"\n',  # cut line
        good + mllog("run_stop", T0 + 1, None, status="success") + "\n",                          # twice
        "",
    ]


@pytest.mark.parametrize("ruleset, benchmark", [("1.0.0", "resnet"), ("1.1.0", "resnet"), ("4.1.0", "bert")])
def test_verdicts_with_the_stand_ins_are_the_checker_s_own(monkeypatch, ruleset, benchmark):
    fast = [compliance.check_bytes(log.encode(), ruleset) for log in logs(benchmark)]
    with monkeypatch.context() as plain:
        plain.setattr(checker_speed, "install", lambda module: None)
        plain.setattr(mlp_compliance, "yaml", yaml)
        plain.delattr(mlp_compliance, "eval", raising=False)
        plain.delattr(mlp_compliance, "exec", raising=False)
        as_written = [compliance.check_bytes(log.encode(), ruleset) for log in logs(benchmark)]
        assert mlp_compliance.yaml is yaml and not hasattr(mlp_compliance, "eval")
    assert fast == as_written
    assert len({v.failed_check for v in fast}) >= 3 and not any(v.problem for v in fast)  # the rules ran


@pytest.mark.parametrize("source", ["1 + 2", "  \t1 + 2", "v['x'] > 1 and ll == 'line'", "s.get('n', 0) + 1",
                                    "1 +", "undefined_name", "  x = 1"])
def test_compiled_eval_is_the_built_in(source):
    def run(evaluate):
        state = {"s": {"n": 4}}
        try:
            return evaluate(source, state, {"ll": "line", "v": {"x": 2}})
        except Exception as error:  # noqa: BLE001 - compared, not handled
            return type(error)

    assert run(checker_speed.compiled_eval) == run(eval)


@pytest.mark.parametrize("source", ["s['n'] = v['x'] * 2", "if ll:\n    s['seen'] = True", "raise KeyError('k')",
                                    "s['n'] = ", "import math\ns['pi'] = round(math.pi, 2)"])
def test_compiled_exec_is_the_built_in(source):
    def run(execute):
        state = {"s": {}}
        try:
            execute(source, state, {"ll": "line", "v": {"x": 2}})
        except Exception as error:  # noqa: BLE001 - compared, not handled
            return type(error)
        return state["s"]

    assert run(checker_speed.compiled_exec) == run(exec)


def test_a_rule_file_is_parsed_once_per_version_and_each_caller_gets_its_own_copy(tmp_path):
    rules = tmp_path / "common.yaml"
    rules.write_text("- KEY:\n    NAME: seed\n    REQ: EXACTLY_ONE\n")
    parsed = checker_speed.ParsedRules(yaml)

    def load():
        with open(rules) as f:
            return parsed.load(f, Loader=yaml.BaseLoader)

    first = load()
    first[0]["KEY"]["REQ"] = "changed by a caller"
    assert load() == [{"KEY": {"NAME": "seed", "REQ": "EXACTLY_ONE"}}]
    rules.write_text("- KEY:\n    NAME: seed\n    REQ: AT_LEAST_ONE\n")
    assert load() == [{"KEY": {"NAME": "seed", "REQ": "AT_LEAST_ONE"}}]
    assert parsed.BaseLoader is yaml.BaseLoader  # the rest of yaml as it is
