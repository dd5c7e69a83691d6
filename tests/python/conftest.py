import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]


def run_mpgen(*args: str) -> subprocess.CompletedProcess:
    return subprocess.run([sys.executable, "-m", "mpgen", *args], capture_output=True, text=True,
                          cwd=ROOT)


@pytest.fixture
def mpgen():
    return run_mpgen
