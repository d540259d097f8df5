"""Measuring speed honestly: medians of repeats, and memory bandwidth read with as many threads
as the work it is compared with.

Why a module: notebook 11 and ``make bench`` both set a matrix product's speed against this
machine's memory bandwidth. They must probe it the same way, and compare like with like: numpy's
BLAS may run a product on several threads, and a one-thread probe against a two-thread product
makes the product look faster than memory allows.
"""

from __future__ import annotations

import ctypes
import os
import statistics
import time
from collections.abc import Callable
from concurrent.futures import ThreadPoolExecutor
from typing import Any

import numpy as np

__all__ = ["blas_description", "blas_threads", "median_ms", "memory_bandwidth"]


def median_ms(call: Callable[[], Any], repeats: int = 7) -> float:
    """The median wall time of ``call()`` over ``repeats`` runs, in milliseconds.

    A median, not a mean: on a shared machine one run that waited for a core says nothing
    about the code.
    """
    if repeats < 1:
        raise ValueError(f"repeats must be at least 1, got {repeats}.")
    times = []
    for _ in range(repeats):
        start = time.perf_counter()
        call()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def memory_bandwidth(megabytes: int = 256, threads: int = 1, repeats: int = 9) -> dict[str, Any]:
    """Streaming-read bandwidth in GB/s: the median of ``repeats`` reads of a buffer far larger
    than the CPU caches, on ``threads`` threads (numpy releases the GIL while it reduces).

    Why a median of several large reads: on a shared machine one read of 64 MB gave anything
    from 9.5 to 50 GB/s; the median of nine reads of 256 MB stays within about a third. Three
    reductions read the same bytes: a float sum, a float max, and a bitwise OR of them as int32.
    A sum can be limited by arithmetic rather than memory, so the kernel with the highest median
    is the reference. Returns ``{"each": {kernel: median GB/s}, "best": median GB/s of the
    reference kernel, "kernel": its name, "spread": (25th, 75th percentile GB/s of its reads),
    "threads", "megabytes", "repeats"}``.
    """
    if megabytes < 1 or threads < 1 or repeats < 1:
        raise ValueError(f"need megabytes >= 1, threads >= 1 and repeats >= 1, got {megabytes}, "
                         f"{threads}, {repeats}.")
    buffer = np.ones(megabytes * 2**20 // 4, dtype=np.float32)  # written once: real pages
    kernels = {
        "sum": (np.sum, buffer),
        "max": (np.max, buffer),
        "or": (np.bitwise_or.reduce, buffer.view(np.int32)),
    }
    reads: dict[str, list[float]] = {}
    with ThreadPoolExecutor(threads) as pool:
        for name, (reduce, data) in kernels.items():
            parts = np.array_split(data, threads)
            reduce(data)  # warm up
            reads[name] = []
            for _ in range(repeats):
                start = time.perf_counter()
                list(pool.map(reduce, parts))
                reads[name].append(data.nbytes / (time.perf_counter() - start) / 1e9)
    each = {name: statistics.median(gbs) for name, gbs in reads.items()}
    kernel = max(each, key=each.__getitem__)
    low, high = np.percentile(reads[kernel], [25, 75])
    return {"each": each, "best": each[kernel], "kernel": kernel,
            "spread": (float(low), float(high)), "threads": threads,
            "megabytes": megabytes, "repeats": repeats}


def blas_threads() -> int:
    """How many threads numpy's BLAS uses for a matrix product (1 when it cannot tell)."""
    for line in blas_description():
        if line.startswith("numpy") and "threads=" in line:
            value = line.split("threads=")[1].split()[0]
            if value.isdigit():
                return int(value)
    return 1


def blas_description() -> list[str]:
    """Which BLAS libraries are loaded, whose they are, which CPU kernel and how many threads.

    threadpoolctl knows when installed; otherwise OpenBLAS is asked directly through ctypes (the
    call threadpoolctl makes), and numpy's build configuration is the last resort.
    """
    try:
        from threadpoolctl import threadpool_info

        found = [i for i in threadpool_info() if i.get("user_api") == "blas"]
        if found:
            return [
                f"{_owner(i.get('filepath', ''))}: {i.get('internal_api')} {i.get('version')} "
                f"kernel={i.get('architecture')} threads={i.get('num_threads')} (threadpoolctl)"
                for i in found
            ]
    except ImportError:
        pass
    lines = []
    for lib_path in _loaded_libraries("openblas"):
        try:
            lib = ctypes.CDLL(lib_path)
        except OSError:
            continue
        for prefix, suffix in (("scipy_openblas", "64_"), ("openblas", "64_"), ("openblas", "")):
            corename = getattr(lib, f"{prefix}_get_corename{suffix}", None)
            if corename is None:
                continue
            corename.restype = ctypes.c_char_p
            threads = getattr(lib, f"{prefix}_get_num_threads{suffix}", None)
            lines.append(
                f"{_owner(lib_path)}: OpenBLAS kernel={corename().decode()} "
                f"threads={threads() if threads is not None else '?'} "
                f"({os.path.basename(lib_path)}, ctypes)"
            )
            break
    if not any(line.startswith("numpy") for line in lines):
        config = np.show_config(mode="dicts").get("Build Dependencies", {}).get("blas", {})
        lines.insert(
            0,
            f"numpy: {config.get('name', 'unknown')} {config.get('version', '')} "
            "(kernel and threads unknown: from numpy.show_config)",
        )
    return sorted(lines, key=lambda line: not line.startswith("numpy"))


def _owner(path: str) -> str:
    """'numpy' or 'faiss' when the library sits in that package's folder, else its folder."""
    for name in ("numpy", "faiss"):
        if f"/{name}" in path:
            return name
    return os.path.basename(os.path.dirname(path)) or "?"


def _loaded_libraries(word: str) -> list[str]:
    """Shared libraries of this process whose path contains ``word`` (Linux: /proc/self/maps)."""
    try:
        with open("/proc/self/maps", encoding="utf-8") as maps:
            paths = {line.split()[-1] for line in maps if word in line.lower() and "/" in line}
    except OSError:
        return []
    return sorted(paths)
