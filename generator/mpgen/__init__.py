"""mpgen: generator of straight-line multi-precision integer kernels for NVIDIA GPUs."""

__version__ = "0.1.0"
