"""The recall-cost benchmark: a quick run over three real repositories whose figures must add
up (no speed or size thresholds: the flow changes), and its coverage probes."""

from __future__ import annotations

from tests.conftest import run_quick_bench
from tests.perf.bench_recall_cost import PARTS, covered, probes, unit_probes
from tests.perf.real_corpus import repositories

CHUNK_LIMIT = 40 * 1024


def test_a_quick_run_reports_every_part_now_and_before() -> None:
    line = run_quick_bench("bench_recall_cost.py", timeout=300)
    assert line["benchmark"] == "recall_cost"
    for name in PARTS:
        part = line[name]
        for figures in (part, part["before"]):
            assert figures["keep_covered"] <= figures["keep_labelled"]
            assert figures["keep_covered_by_unit"] <= figures["keep_labelled"]
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


def test_a_message_unit_is_the_session_files_message_of_that_number() -> None:
    source = {
        "file": "gemini-cli/Chiward__text_to_picture__session-2025-09-25T05-35-209b4e74.json",
        "lines": [1],
        "unit": "message",
    }
    assert probes(source) == []  # its line 1 is the `{` that opens the pretty JSON
    assert unit_probes(source) == ["请把回复的语言全部改成中文。"]
    label = {"sources": [source]}
    assert covered(label, "<<past-user>>\n请把回复的语言全部改成中文。", unit_probes)
    assert not covered(label, "<<past-user>>\n请把回复的语言全部改成中文。")
    by_line = {k: v for k, v in source.items() if k != "unit"}
    assert unit_probes(by_line) == probes(by_line)
