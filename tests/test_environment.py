"""requirements.txt (pip) and environment.yml (conda) must pin the same packages at the same versions."""

import re
from pathlib import Path

import yaml

ROOT = Path(__file__).resolve().parent.parent
PIN = re.compile(r"^([A-Za-z0-9_.\-\[\]]+)==([^\s;#]+)$")


def _pins(lines):
    pins = {}
    for line in lines:
        line = line.split("#", 1)[0].strip()
        if not line:
            continue
        match = PIN.match(line)
        assert match, f"not pinned with ==: {line!r}"
        pins[match.group(1).lower().replace("_", "-")] = match.group(2)
    return pins


def test_requirements_and_environment_pin_the_same_packages():
    pip_pins = _pins((ROOT / "requirements.txt").read_text().splitlines())
    env = yaml.safe_load((ROOT / "environment.yml").read_text())
    pip_section = next(d["pip"] for d in env["dependencies"] if isinstance(d, dict) and "pip" in d)
    assert _pins(pip_section) == pip_pins


def test_no_jupyter_metapackage():
    pins = _pins((ROOT / "requirements.txt").read_text().splitlines())
    assert "jupyter" not in pins and "notebook" not in pins and "jupyterlab" not in pins


def test_lean_jupyter_install_has_no_rfc3987_syntax():
    """jsonschema[format-nongpl] (pulled by the jupyter metapackage) brings rfc3987-syntax, ~1.9 s per import."""
    from importlib import metadata

    installed = {dist.metadata["Name"].lower() for dist in metadata.distributions()}
    assert "rfc3987-syntax" not in installed and "jupyter" not in installed
