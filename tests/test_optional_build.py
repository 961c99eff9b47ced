"""Installing without a C compiler: the build of the extension is optional (setup.py),
and what is installed then runs on the pure-Python core, with the same results.

Each test builds a wheel from a copy of the sources into a temporary ``--target``
(pip's build isolation fetches setuptools and Cython from the package index). The C
files Cython made for this checkout are copied along, so Cython has nothing to redo
and the failing compiler is reached at once. These run once, not per core.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "access.log"

pytestmark = pytest.mark.twins


def _sources(dest: Path) -> Path:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    for name in listed.stdout.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)
    for c in (ROOT / "ext" / "urlsift").glob("*.c"):
        shutil.copy2(c, dest / "ext" / "urlsift" / c.name)
    return dest


def _install(tmp_path: Path, env: dict) -> tuple[subprocess.CompletedProcess, Path]:
    src = _sources(tmp_path / "src")
    target = tmp_path / "target"
    env = {k: v for k, v in os.environ.items() if not k.startswith("URLSIFT_")} | env
    done = subprocess.run([sys.executable, "-m", "pip", "install", "-v", "--no-deps",
                           "--target", str(target), str(src)],
                          capture_output=True, env=env, timeout=600)
    return done, target


def _run_installed(target: Path, *args: str) -> subprocess.CompletedProcess:
    env = {k: v for k, v in os.environ.items() if not k.startswith("URLSIFT_")}
    env["PYTHONPATH"] = str(target)
    return subprocess.run([sys.executable, "-m", "urlsift", *args], capture_output=True,
                          env=env, cwd=target, timeout=120)


def test_without_a_compiler_the_pure_core_is_installed(tmp_path):
    done, target = _install(tmp_path, {"CC": "/bin/false", "CXX": "/bin/false"})
    log = done.stdout.decode(errors="replace") + done.stderr.decode(errors="replace")
    assert done.returncode == 0, log[-3000:]
    assert "the C extension could not be built" in log
    assert not list((target / "urlsift").glob("*_c.*.so"))
    assert _run_installed(target, "--version").stdout.decode().endswith("(pure-Python core)\n")
    got = _run_installed(target, "extract", str(SAMPLE))
    assert got.returncode == 0
    from urlsift.text.files import url_lines
    assert got.stdout == b"".join(url_lines(str(SAMPLE)))     # the same URLs


def test_no_extensions_on_request(tmp_path):
    done, target = _install(tmp_path, {"URLSIFT_NO_EXTENSIONS": "1"})
    assert done.returncode == 0, done.stderr.decode(errors="replace")[-3000:]
    assert not list((target / "urlsift").glob("*_c.*.so"))
    assert _run_installed(target, "--version").stdout.decode().endswith("(pure-Python core)\n")


def test_a_required_extension_fails_the_install(tmp_path):
    done, target = _install(tmp_path, {"CC": "/bin/false", "CXX": "/bin/false",
                                       "URLSIFT_REQUIRE_EXTENSIONS": "1"})
    assert done.returncode != 0
    assert b"URLSIFT_REQUIRE_EXTENSIONS is set" in done.stdout + done.stderr


def test_wheel_configuration_is_well_formed():
    tomllib = pytest.importorskip("tomllib")
    config = tomllib.loads((ROOT / "pyproject.toml").read_text())["tool"]["cibuildwheel"]
    assert config["environment"] == {"URLSIFT_REQUIRE_EXTENSIONS": "1"}   # never a pure wheel
    for test in config["test-command"].split():
        if test.startswith("{project}/"):
            assert (ROOT / test.removeprefix("{project}/")).is_file(), test
    yaml = pytest.importorskip("yaml")
    flow = yaml.safe_load((ROOT / ".github" / "workflows" / "wheels.yml").read_text())
    assert flow[True]["push"]["tags"] == ["v*"]     # YAML 1.1 reads the key "on" as True
    steps = flow["jobs"]["wheels"]["steps"]
    assert any(s.get("uses", "").startswith("pypa/cibuildwheel@") for s in steps)
