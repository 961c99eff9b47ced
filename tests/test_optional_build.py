"""Installing without a C compiler: the build of the extension is optional (setup.py),
and what is installed then runs on the pure-Python core, with the same results.

Each test installs a copy of the sources (``git ls-files``) into a temporary
``--target`` and asks the installed copy which core it runs on. pip's build isolation
fetches setuptools and Cython from the package index. The C files Cython made for this
checkout are copied along, so Cython has nothing to redo (the test of a failing Cython
leaves them out). These run once, not per core; together about a minute.
"""
from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
SAMPLE = ROOT / "samples" / "access.log"
PYX = sorted(p.stem for p in (ROOT / "ext" / "urlsift").glob("*.pyx"))
WARNING = "urlsift: the C extension could not be built"
NO_COMPILER = {"CC": "/bin/false", "CXX": "/bin/false"}

pytestmark = pytest.mark.twins


def _sources(dest: Path, *, c_files: bool = True) -> Path:
    listed = subprocess.run(["git", "ls-files", "-z"], cwd=ROOT, capture_output=True)
    if listed.returncode != 0:
        pytest.skip("not a git checkout")
    for name in listed.stdout.decode().split("\0"):
        if name and (ROOT / name).is_file():
            (dest / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(ROOT / name, dest / name)
    for c in (ROOT / "ext" / "urlsift").glob("*.c") if c_files else ():
        shutil.copy2(c, dest / "ext" / "urlsift" / c.name)
    return dest


def _clean_env(**extra: str) -> dict[str, str]:
    env = {k: v for k, v in os.environ.items() if not k.startswith("URLSIFT_")}
    env.update(extra)
    return env


def _install(tmp_path: Path, env: dict[str, str], *pip_args: str,
             src: Path | None = None) -> tuple[int, str, Path]:
    """pip's exit status, its verbose log (the build's output included), the target."""
    src = src or _sources(tmp_path / "src")
    target = tmp_path / "target"
    done = subprocess.run([sys.executable, "-m", "pip", "install", "-v", "--no-deps",
                           "--target", str(target), *pip_args, str(src)],
                          capture_output=True, env=_clean_env(**env), timeout=600)
    log = done.stdout.decode(errors="replace") + done.stderr.decode(errors="replace")
    return done.returncode, log, target


def _installed(target: Path, *args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, *args], capture_output=True, cwd=target,
                          env=_clean_env(PYTHONPATH=str(target)), timeout=120)


def _core_of(target: Path) -> str:
    """The core the copy installed in ``target`` runs on, as urlsift._select says."""
    got = _installed(target, "-c", "import urlsift, urlsift._select as s; "
                                   "print(s.KIND); print(urlsift.__file__)")
    kind, where = got.stdout.decode().split()
    assert Path(where).is_relative_to(target), where       # not this checkout's urlsift
    return kind


def _compiled(target: Path) -> list[str]:
    return sorted(p.name.split(".")[0] for p in (target / "urlsift").glob("*_c.*")
                  if p.suffix in (".so", ".pyd"))


def test_without_a_compiler_the_pure_core_is_installed(tmp_path):
    status, log, target = _install(tmp_path, NO_COMPILER)
    assert status == 0, log[-3000:]
    assert log.count("*** " + WARNING) == 1, log[-3000:]   # the first failure ends the build
    assert "installing the pure-Python core" in log and "50x slower" in log
    assert _compiled(target) == []
    assert _core_of(target) == "python"
    version = _installed(target, "-m", "urlsift", "--version").stdout.decode()
    assert version.endswith("(pure-Python core)\n")
    got = _installed(target, "-m", "urlsift", "extract", str(SAMPLE))
    assert got.returncode == 0
    from urlsift.text.files import url_lines
    assert got.stdout == b"".join(url_lines(str(SAMPLE)))     # the same URLs


def test_no_extensions_on_request(tmp_path):
    status, log, target = _install(tmp_path, {"URLSIFT_NO_EXTENSIONS": "1"})
    assert status == 0, log[-3000:]
    assert "URLSIFT_NO_EXTENSIONS is set" in log
    assert WARNING not in log                       # skipped, not failed
    assert _compiled(target) == []
    assert _core_of(target) == "python"


def test_an_old_build_folder_ships_no_stale_compiled_module(tmp_path):
    # a checkout built once (build/lib holds a compiled core), then installed pure
    src = _sources(tmp_path / "src")
    stale = src / "build" / "lib" / "urlsift"
    stale.mkdir(parents=True)
    built = sorted((ROOT / "src" / "urlsift").glob("_scan_c.*"))
    for path in built or [ROOT / "setup.py"]:
        shutil.copy2(path, stale / (path.name if built else
                                    "_scan_c" + sysconfig.get_config_var("EXT_SUFFIX")))
    status, log, target = _install(tmp_path, {"URLSIFT_NO_EXTENSIONS": "1"}, src=src)
    assert status == 0, log[-3000:]
    assert _compiled(target) == []
    assert _core_of(target) == "python"


def test_a_required_extension_fails_the_install(tmp_path):
    status, log, target = _install(tmp_path, {**NO_COMPILER, "URLSIFT_REQUIRE_EXTENSIONS": "1"})
    assert status != 0
    assert ("urlsift: URLSIFT_REQUIRE_EXTENSIONS is set and the C extension could not be "
            "built: urlsift._build_c:") in log       # the first module, and why
    assert not (target / "urlsift").exists()


def test_a_failing_cython_leaves_the_pure_core(tmp_path):
    src = _sources(tmp_path / "src", c_files=False)
    with open(src / "ext" / "urlsift" / "_guard_c.pyx", "a") as pyx:
        pyx.write("\ndef broken(:\n    pass\n")
    status, log, target = _install(tmp_path, {}, src=src)
    assert status == 0, log[-3000:]
    assert WARNING + " (Cython failed:" in log
    assert _compiled(target) == []
    assert _core_of(target) == "python"


def test_without_cython_the_pure_core_is_installed(tmp_path):
    # the build environment made by hand (no isolation): a setuptools, no Cython
    tools = tmp_path / "tools"
    got = subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--target", str(tools),
                          "setuptools>=77"], capture_output=True, env=_clean_env(), timeout=300)
    if got.returncode != 0:
        pytest.skip(f"setuptools>=77 could not be installed: {got.stderr.decode()[-300:]}")
    (tools / "Cython").mkdir(exist_ok=True)         # hides any Cython of this interpreter
    (tools / "Cython" / "__init__.py").write_text("raise ImportError('no Cython here')\n")
    status, log, target = _install(tmp_path, {"PYTHONPATH": str(tools)}, "--no-build-isolation")
    assert status == 0, log[-3000:]
    assert WARNING + " (Cython is not installed: no Cython here)" in log
    assert _compiled(target) == []
    assert _core_of(target) == "python"


def _compiler() -> str | None:
    cc = (os.environ.get("CC") or sysconfig.get_config_var("CC") or "").split()
    return shutil.which(cc[0]) if cc else None


@pytest.mark.skipif(sys.platform == "win32" or _compiler() is None, reason="no C compiler")
def test_a_normal_build_compiles_every_core(tmp_path):
    # -O0 keeps it short, and shows that URLSIFT_EXTRA_COMPILE_ARGS reaches the compiler
    status, log, target = _install(tmp_path, {"URLSIFT_EXTRA_COMPILE_ARGS": "-O0"})
    assert status == 0, log[-3000:]
    assert WARNING not in log
    assert _compiled(target) == PYX                 # every ext/urlsift/*.pyx
    compiles = [line for line in log.splitlines() if "_c.c" in line and " -c " in line]
    assert len(compiles) == len(PYX) and all(" -O0" in line for line in compiles), compiles
    assert _core_of(target) == "cython"
