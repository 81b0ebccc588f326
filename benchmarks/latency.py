"""Latency figures as the benchmarks print them."""

from __future__ import annotations

import statistics


def milliseconds(seconds: list[float], *, digits: int = 2, worst: bool = False) -> str:
    """`p50 X ms, p99 Y ms` (and the maximum, with `worst`) of durations given in seconds."""
    ordered = sorted(seconds)
    text = (f"p50 {statistics.median(ordered) * 1000:.{digits}f} ms, "
            f"p99 {ordered[int(len(ordered) * 0.99)] * 1000:.{digits}f} ms")
    return text + (f", max {ordered[-1] * 1000:.{digits}f} ms" if worst else "")
