"""Benchmark of short ids cut against a whole namespace, as text output cuts them.

Builds candidate ids the way extraction names them (`extract-<64 hex>-cN`, four per task) and
measures in one process, for the 50 ids a review page shows:
- the baseline: `abbreviations` over the shown ids alone (unique only among themselves);
- `within_ms`: `abbreviate_within` against every id of the namespace (median of five): one
  pass keeps the ids that start like a shown one, and each shown id is cut against those.
Prints one JSON line. `--quick` makes 2,000 ids instead of 200,000.
"""

from __future__ import annotations

import argparse
import hashlib
import json
import statistics
import time
from collections.abc import Callable

from git_memory.ids import abbreviate_within, abbreviations

SHOWN = 50


def _namespace(count: int) -> list[str]:
    tasks = count // 4
    digests = (hashlib.sha256(str(n).encode()).hexdigest() for n in range(tasks))
    return [f"extract-{digest}-c{c}" for digest in digests for c in range(1, 5)]


def _median_ms(run: Callable[[], object], repeat: int = 5) -> float:
    times = []
    for _ in range(repeat):
        start = time.perf_counter()
        run()
        times.append((time.perf_counter() - start) * 1000)
    return round(statistics.median(times), 3)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--quick", action="store_true")
    count = 2_000 if parser.parse_args().quick else 200_000
    namespace = _namespace(count)
    shown = namespace[:: len(namespace) // SHOWN][:SHOWN]
    cut = abbreviate_within(shown, namespace)
    longest = max(len(form) for form in cut.values())
    print(
        json.dumps(
            {
                "bench": "short_ids",
                "namespace": len(namespace),
                "shown": len(shown),
                "baseline_shown_only_ms": _median_ms(lambda: abbreviations(shown)),
                "within_ms": _median_ms(lambda: abbreviate_within(shown, namespace)),
                "longest_form": longest,
            }
        )
    )


if __name__ == "__main__":
    main()
