"""How long NVRTC takes over a module's kernels source as the Python runtime hands it to CuPy
(header inlined, the same options), timed here through libnvrtc itself, so that no GPU or CuPy
is needed: PYTHONPATH=generator python3 bench/nvrtc_time.py gf 8 [--arch sm_90]
(kinds: size BITS, gf K, rns COUNT)."""
import argparse
import ctypes
import ctypes.util
import time

from mpgen.runtime import gpu, source


def compile_seconds(src: source.Source, arch: str) -> float:
    nvrtc = ctypes.CDLL(ctypes.util.find_library("nvrtc") or "/usr/local/cuda/lib64/libnvrtc.so")
    code = src.kernels.replace(f'#include "{src.header_name}"', src.header, 1).encode()
    program = ctypes.c_void_p()
    if nvrtc.nvrtcCreateProgram(ctypes.byref(program), code, b"kernels.cu", 0, None, None):
        raise SystemExit("nvrtcCreateProgram failed")
    # CuPy's RawModule adds --device-as-default-execution-space where NVRTC is 12 or later
    options = [o.encode() for o in (*gpu.OPTIONS, "--device-as-default-execution-space", f"-arch={arch}")]
    start = time.perf_counter()
    failed = nvrtc.nvrtcCompileProgram(program, len(options), (ctypes.c_char_p * len(options))(*options))
    seconds = time.perf_counter() - start
    if failed:
        size = ctypes.c_size_t()
        nvrtc.nvrtcGetProgramLogSize(program, ctypes.byref(size))
        log = ctypes.create_string_buffer(size.value)
        nvrtc.nvrtcGetProgramLog(program, log)
        raise SystemExit(f"NVRTC failed on {src.header_name}: {log.value.decode()[:2000]}")
    return seconds


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("kind", choices=["size", "gf", "rns"])
    parser.add_argument("number", type=int)
    parser.add_argument("--arch", default="sm_90")
    args = parser.parse_args()
    make = {"size": source.size_source, "gf": source.gf_source, "rns": source.rns_source}[args.kind]
    src = make(args.number)
    print(f"{src.contract['name']}: NVRTC {compile_seconds(src, args.arch):.1f} s ({args.arch})")


if __name__ == "__main__":
    main()
