"""The package as a user installs it: a wheel, in a fresh virtual environment, away from
this checkout, generates the same headers as the checkout does."""
import os
import shutil
import subprocess
import sys
import venv
import zipfile

from conftest import ROOT


def test_built_wheel_installs_and_generates(tmp_path, mpgen):
    source = tmp_path / "source"  # a copy: setuptools writes build/ beside pyproject.toml
    source.mkdir()
    shutil.copy(ROOT / "pyproject.toml", source)
    shutil.copytree(ROOT / "generator", source / "generator",
                    ignore=shutil.ignore_patterns("__pycache__", "*.egg-info"))
    wheels = tmp_path / "wheels"
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation",
                    "-w", str(wheels), str(source)], check=True)
    (wheel,) = wheels.glob("mpgen-*.whl")
    packaged = zipfile.ZipFile(wheel).namelist()
    for needed in ("mpgen/templates/size.cuh.j2", "mpgen/headers/loops.cuh", "mpgen/data/fields.toml"):
        assert needed in packaged

    env = tmp_path / "venv"
    venv.create(env, with_pip=True)
    subprocess.run([env / "bin" / "python", "-m", "pip", "install", "-q", "--disable-pip-version-check",
                    str(wheel)], check=True)
    for args, header in ((["--bits", "131", "--ops", "mul,add"], "mpgen_u131.cuh"),
                         (["--field", "secp256k1", "--ops", "modmul,modinv"], "mpgen_secp256k1.cuh")):
        installed = subprocess.run([env / "bin" / "mpgen", "generate", *args, "--out", str(tmp_path / "installed")],
                                   cwd=tmp_path, capture_output=True, text=True)
        assert installed.returncode == 0, installed.stderr
        assert mpgen("generate", *args, "--out", str(tmp_path / "checkout")).returncode == 0
        assert (tmp_path / "installed" / header).read_text() == (tmp_path / "checkout" / header).read_text()
    # the Python runtime from the wheel alone, on the CPU
    script = "import mpgen; k = mpgen.compile(64, ['mul'], device='cpu'); print(k.mul([2**64 - 1], [3]))"
    ran = subprocess.run([env / "bin" / "python", "-c", script], cwd=tmp_path, capture_output=True, text=True,
                         env={**os.environ, "MPGEN_CACHE": str(tmp_path / "cache")})
    assert ran.returncode == 0, ran.stderr
    assert ran.stdout == f"[{(2**64 - 1) * 3}]\n"
