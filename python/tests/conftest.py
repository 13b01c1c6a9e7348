import os
import shutil
import stat
import subprocess
import sys
from pathlib import Path

import pytest

HERE = Path(__file__).resolve().parent
REPO = HERE.parents[1]
sys.path.insert(0, str(HERE))


@pytest.fixture(autouse=True)
def _isolate(tmp_path, monkeypatch):
    """Never write into the repository's results/ from a test."""
    monkeypatch.setenv("RTOSLAB_HISTORY", str(tmp_path / "history.sqlite"))
    monkeypatch.delenv("RTOSLAB_VP", raising=False)
    monkeypatch.delenv("RTOSLAB_DEBUG", raising=False)
    # one cell at a time unless a test asks for --jobs: the tests run two at once already (-n 2),
    # and a pool's worker processes would cost their start-up in every test that runs two RTOSes
    monkeypatch.setenv("RTOSLAB_JOBS", "1")


@pytest.fixture
def fake_vp(tmp_path, monkeypatch):
    exe = tmp_path / "rtoslab-vp-fake"
    exe.write_text(f"#!{sys.executable}\nimport runpy, sys\nsys.argv[0] = {str(HERE / 'fake_vp.py')!r}\n"
                   f"runpy.run_path({str(HERE / 'fake_vp.py')!r}, run_name='__main__')\n")
    exe.chmod(exe.stat().st_mode | stat.S_IXUSR)
    monkeypatch.setenv("RTOSLAB_VP", str(exe))
    return exe


class Result:
    def __init__(self, status, out, err):
        self.status, self.out, self.err = status, out, err

    def __repr__(self):
        return f"<status={self.status} out={self.out[-500:]!r} err={self.err!r}>"


@pytest.fixture
def cli(capsys):
    from rtoslab.cli import main

    def run(*args):
        capsys.readouterr()
        status = main([str(a) for a in args])
        out, err = capsys.readouterr()
        return Result(status, out, err)
    return run


@pytest.fixture(scope="session")
def fixture_elfs(tmp_path_factory):
    """Real Cortex-M0 images compiled from tests/fixtures/fw (needs arm-none-eabi-gcc)."""
    if not shutil.which("arm-none-eabi-gcc"):
        pytest.skip("arm-none-eabi-gcc not installed")
    out = tmp_path_factory.mktemp("fw")
    subprocess.run(["sh", str(HERE / "fixtures" / "fw" / "build.sh"), str(out)], check=True,
                   capture_output=True)
    return {"plain": out / "fixture.elf", "protocol": out / "fixture-protocol.elf",
            "fault": out / "fixture-fault.elf"}


def real_vp():
    """The real simulator, if built (never built by the tests)."""
    env = os.environ.get("RTOSLAB_VP_REAL")
    cand = Path(env) if env else REPO / "vp" / "target" / "release" / "rtoslab-vp"
    return cand if cand.is_file() and os.access(cand, os.X_OK) else None
