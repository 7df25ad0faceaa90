"""The recall-cost benchmark: a quick run over three real repositories whose figures must add
up (no speed or size thresholds: the flow changes), and its coverage probes."""

from __future__ import annotations

from tests.conftest import run_quick_bench
from tests.perf.bench_recall_cost import PARTS, covered, probes
from tests.perf.real_corpus import repositories

CHUNK_LIMIT = 40 * 1024


def test_a_quick_run_reports_every_part_now_and_before() -> None:
    line = run_quick_bench("bench_recall_cost.py", timeout=300)
    assert line["benchmark"] == "recall_cost"
    for name in PARTS:
        part = line[name]
        for figures in (part, part["before"]):
            assert figures["keep_covered"] <= figures["keep_labelled"]
            if figures["sessions"]:
                spread = figures["per_session"]
                assert 0 < spread["median"] <= spread["p90"]
                assert 0 < figures["transcript_share"] < 1
        assert part["largest_transcript_bytes"] <= CHUNK_LIMIT
        for key in ("median", "p90"):
            expected = round(part["per_session"][key] / part["before"]["per_session"][key], 3)
            assert part["ratio"][key] == expected


def test_probes_are_words_of_a_labelled_line() -> None:
    keep = [
        label
        for repository in repositories().values()
        for label in repository.labels
        if label["verdict"] == "KEEP" and label.get("sources")
    ]
    found = [probe for label in keep[:10] for s in label["sources"] for probe in probes(s)]
    assert found
    assert all(len(probe) <= 32 for probe in found)
    label = keep[0]
    some = next(p for s in label["sources"] for p in probes(s))
    assert covered(label, f"… {some} …")
    assert not covered(label, "nothing of it")
