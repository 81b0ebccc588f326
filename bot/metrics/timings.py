"""A Prometheus histogram that counts without locks.

prometheus_client's `Histogram` takes two locks an observation (its sum, its bucket): a tap
times a dozen things (database calls above all), so that was most of what the metrics cost it.
Here every observation comes from the event loop's thread, and a scrape, from the server's
thread, copies each series whole (a list copied holds the interpreter's lock), so no lock
is needed: at worst a scrape misses the observation being made, which the next one shows."""

from __future__ import annotations

import math
from bisect import bisect_left
from collections.abc import Iterator

from prometheus_client.core import HistogramMetricFamily, Metric
from prometheus_client.registry import Collector
from prometheus_client.utils import floatToGoString


class Timings(Collector):
    def __init__(self, name: str, documentation: str, buckets: tuple[float, ...],
                 labels: tuple[str, ...] = ()) -> None:
        self.name = name
        self.documentation = documentation
        self.bounds = tuple(sorted(buckets))
        self.labels = labels
        # the library leaves it unannotated
        self._les = [floatToGoString(b) for b in (*self.bounds, math.inf)]  # type: ignore[no-untyped-call]
        self.series: dict[tuple[str, ...], list[float]] = {}
        """Per label values: the count in each bucket (the last, +Inf), then the sum."""

    def observe(self, seconds: float, labels: tuple[str, ...] = ()) -> None:
        counts = self.series.get(labels)
        if counts is None:
            counts = self.series[labels] = [0.0] * (len(self.bounds) + 2)
        counts[bisect_left(self.bounds, seconds)] += 1
        counts[-1] += seconds

    def describe(self) -> Iterator[Metric]:
        yield HistogramMetricFamily(self.name, self.documentation, labels=self.labels)

    def collect(self) -> Iterator[Metric]:
        family = HistogramMetricFamily(self.name, self.documentation, labels=self.labels)
        for labels, counts in list(self.series.items()):
            copied = list(counts)
            cumulative = 0.0
            buckets = []
            for le, count in zip(self._les, copied[:-1], strict=True):
                cumulative += count
                buckets.append((le, cumulative))
            family.add_metric(list(labels), buckets, copied[-1])
        yield family
