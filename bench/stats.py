"""Summary figures of timings, the one way every tool computes them."""

from __future__ import annotations

import math
import statistics
from collections.abc import Sequence


def percentile(values: Sequence[float], q: int) -> float:
    """The `q`-th percentile (1 to 99) of `values`, interpolated between the two nearest
    samples (the inclusive method, numpy's default); nan for no values."""
    if not values:
        return math.nan
    if len(values) == 1:
        return float(values[0])
    return statistics.quantiles(values, n=100, method="inclusive")[q - 1]
