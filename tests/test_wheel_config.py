"""The wheel configuration: ``[tool.cibuildwheel]`` in pyproject.toml, as the pinned
cibuildwheel reads it (it rejects an unknown option and lists what it would build), and
the tag-triggered workflow ``.github/workflows/wheels.yml``. Nothing is built here.
"""
from __future__ import annotations

import re
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
pytestmark = pytest.mark.twins

tomllib = pytest.importorskip("tomllib")          # Python 3.11+
PYPROJECT = tomllib.loads((ROOT / "pyproject.toml").read_text(encoding="utf-8"))
CONFIG = PYPROJECT["tool"]["cibuildwheel"]


def test_every_wheel_must_hold_the_compiled_core():
    assert CONFIG["environment"] == {"URLSIFT_REQUIRE_EXTENSIONS": "1"}   # never a pure wheel
    named = [w.removeprefix("{project}/") for w in CONFIG["test-command"].split()
             if w.startswith("{project}/")]
    assert named and all((ROOT / test).is_file() for test in named), named
    # the tests' own imports are installed for them (conftest: pytest and hypothesis)
    needs = {re.split(r"[<>=]", r)[0] for r in CONFIG["test-requires"]}
    assert needs == {"pytest", "hypothesis"}


def _identifiers(platform: str, archs: str) -> list[str]:
    pytest.importorskip("cibuildwheel")
    done = subprocess.run([sys.executable, "-m", "cibuildwheel", "--print-build-identifiers",
                           "--platform", platform, "--archs", archs, str(ROOT)],
                          capture_output=True, text=True, timeout=120)
    assert done.returncode == 0, done.stderr          # e.g. an option it does not know
    return done.stdout.split()


@pytest.mark.parametrize("platform, archs, expected", [
    ("linux", "x86_64,i686", ["manylinux_x86_64", "musllinux_x86_64"]),
    ("linux", "aarch64", ["manylinux_aarch64", "musllinux_aarch64"]),
    ("macos", "x86_64,arm64", ["macosx_x86_64", "macosx_arm64"]),
    ("windows", "AMD64,x86", ["win_amd64"]),
])
def test_cibuildwheel_builds_cpython_from_the_oldest_supported(platform, archs, expected):
    ids = _identifiers(platform, archs)
    oldest = re.fullmatch(r">=3\.(\d+)", PYPROJECT["project"]["requires-python"])
    assert oldest is not None
    for tag in expected:
        assert f"cp3{oldest[1]}-{tag}" in ids, ids
    assert {i.split("-", 1)[1] for i in ids} == set(expected)   # no i686, no win32
    for ident in ids:
        python = ident.split("-")[0]
        assert re.fullmatch(r"cp3\d+", python), ident       # CPython, not free-threaded (t)
        assert int(python[3:]) >= int(oldest[1]), ident


def test_workflow_runs_the_pinned_cibuildwheel_on_a_version_tag():
    yaml = pytest.importorskip("yaml")
    flow = yaml.safe_load((ROOT / ".github" / "workflows" / "wheels.yml").read_text())
    assert flow[True]["push"]["tags"] == ["v*"]     # YAML 1.1 reads the key "on" as True
    wheels = flow["jobs"]["wheels"]
    oses = " ".join(wheels["strategy"]["matrix"]["os"])
    assert all(name in oses for name in ("ubuntu", "macos", "windows")), oses
    actions = [s["uses"] for s in wheels["steps"] if "uses" in s]
    pinned = [d for d in PYPROJECT["project"]["optional-dependencies"]["dev"]
              if d.startswith("cibuildwheel==")]
    assert [a for a in actions if a.startswith("pypa/cibuildwheel@")] == [
        "pypa/cibuildwheel@v" + pinned[0].split("==")[1]]      # what the tests check with
    sdist = " ".join(s.get("run", "") for s in flow["jobs"]["sdist"]["steps"])
    assert "build --sdist" in sdist
