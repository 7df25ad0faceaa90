"""`git memory consolidate --runner command`: plan approval, delivery, staging, preview."""

from __future__ import annotations

import shutil
import sys
from pathlib import Path

import pytest

from git_memory.formats.scene import parse_scene
from git_memory.runners.sandbox import WRITABLE_SETTING
from tests.conftest import PROJECT_ROOT, run_cli
from tests.consolidate.flow_support import cli_json, error_code, prepare_and_promote, write_entries
from tests.repos import Repo

FAKES = PROJECT_ROOT / "tests" / "fixtures" / "runners"


@pytest.fixture(autouse=True)
def _fake_may_write(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The fake runner's spawn marker is the one thing it may write in the OS sandbox."""
    monkeypatch.setenv(WRITABLE_SETTING, str(tmp_path / "fake"))


def _fake(tmp_path: Path, *modes: str) -> Path:
    directory = tmp_path / "fake"
    directory.mkdir(exist_ok=True)
    directory.chmod(0o1777)  # run as root, the sandboxed runner is an id that owns nothing
    shutil.copy(FAKES / "_fake.py", directory / "_fake.py")
    body = (Path(__file__).parent / "fake_consolidation_runner.py").read_text().split("\n", 1)[1]
    script = directory / "consolidation.py"
    script.write_text(f"#!{sys.executable}\n{body}")
    script.chmod(0o755)
    if modes:
        script.with_suffix(".mode").write_text("\n".join(modes) + "\n")
    return script


def _spawned(script: Path) -> int:
    marker = script.with_suffix(".spawned")
    return len(marker.read_text().splitlines()) if marker.exists() else 0


def _consolidate(root: Path, script: Path, *extra: str) -> object:
    args = ["consolidate", "--runner", "command", "--runner-command", str(script), *extra]
    return run_cli([*args, "--format", "json"], cwd=root)


def test_runner_patch_needs_approval_then_is_staged(repo: Repo, tmp_path: Path) -> None:
    write_entries(repo.root, 3)
    script = _fake(tmp_path)
    pending = _consolidate(repo.root, script)
    assert pending.exit_code == 1  # approval required: nothing was sent
    preview = pending.json()
    assert preview["status"] == "approval-required"
    assert preview["authorized"] is False
    (plan,) = preview["plans"]
    assert plan["taskKind"] == "consolidation"
    assert _spawned(script) == 0
    again = _consolidate(repo.root, script).json()
    assert again["plans"][0]["planDigest"] == plan["planDigest"]  # stable bytes, stable plan
    done = _consolidate(repo.root, script, "--approve-plan", plan["planDigest"])
    assert done.exit_code == 0, done.stdout
    result = done.json()
    assert result["status"] == "staged"
    assert result["stage"]["candidates"][0]["kind"] == "consolidation"
    prepare_and_promote(repo.root, "consolidation", tmp_path)
    scene = parse_scene((repo.root / ".memory" / "scenes" / "release.md").read_text())
    assert scene.heat == 1  # the runner's heat 42 is discarded


def test_runner_answer_with_a_wrong_binding_stores_nothing(repo: Repo, tmp_path: Path) -> None:
    write_entries(repo.root, 3)
    script = _fake(tmp_path, "wrong-binding")
    plan = _consolidate(repo.root, script).json()["plans"][0]
    refused = _consolidate(repo.root, script, "--approve-plan", plan["planDigest"])
    assert error_code(refused) == "GM_RUNNER_OUTPUT_INVALID"
    assert cli_json(["review"], repo.root)["items"] == []
    assert cli_json(["synthesize"], repo.root)["task"] is not None  # no run was recorded
    script.with_suffix(".mode").write_text("")
    retry = _consolidate(repo.root, script).json()  # the spent plan is never sent again
    assert retry["status"] == "approval-required"
    assert retry["plans"][0]["planDigest"] != plan["planDigest"]
    done = _consolidate(repo.root, script, "--approve-plan", retry["plans"][0]["planDigest"])
    assert done.exit_code == 0, done.stdout
    assert done.json()["status"] == "staged"


def test_runner_empty_patch_is_a_no_op_and_if_due(repo: Repo, tmp_path: Path) -> None:
    write_entries(repo.root, 3)
    script = _fake(tmp_path, "empty")
    not_due = _consolidate(repo.root, script, "--if-due")
    assert not_due.exit_code == 0
    assert not_due.json()["status"] == "not-due"
    plan = _consolidate(repo.root, script).json()["plans"][0]
    done = _consolidate(repo.root, script, "--approve-plan", plan["planDigest"]).json()
    assert done["stage"]["noOp"] is True
    assert _consolidate(repo.root, script).json()["status"] == "nothing-new"


def test_usage_errors(repo: Repo, tmp_path: Path) -> None:
    script = _fake(tmp_path)
    both = _consolidate(repo.root, script, "--if-due", "--full")
    assert both.exit_code == 2
    missing = run_cli(["consolidate"], cwd=repo.root)
    assert missing.exit_code == 2
    assert "--runner is required" in missing.stderr
    write_entries(repo.root, 1)
    builtin = run_cli(["consolidate", "--runner", "builtin", "--format", "json"], cwd=repo.root)
    assert error_code(builtin) == "GM_RUNNER_KIND_UNSUPPORTED"


def test_mcp_preview_never_sends(repo: Repo, tmp_path: Path) -> None:
    import pytest

    from git_memory.errors import GitMemoryError
    from git_memory.mcp.tools import load_tools
    from git_memory.ops.base import OpContext

    write_entries(repo.root, 2)
    script = _fake(tmp_path)
    repo.git("config", "memory.runner.command", str(script))
    tool = load_tools()["memory_consolidate_preview"]
    ctx = OpContext(repository=repo.root, interactive=True, front_end="mcp")
    preview = tool.run(ctx, {"runner": "command"})
    assert preview["status"] == "approval-required"
    assert preview["authorized"] is False
    assert "release check" not in str(preview)  # digests only, no memory text
    digest = preview["plans"][0]["planDigest"]
    with pytest.raises(GitMemoryError) as caught:
        tool.run(ctx, {"runner": "command", "approvePlan": digest})
    assert caught.value.code == "GM_REQUEST_INVALID"
    assert _spawned(script) == 0


def test_terminal_approval_sends_after_the_human_agrees(
    repo: Repo, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from git_memory import output
    from git_memory.errors import GitMemoryError
    from git_memory.ops.base import OpContext, load_operation

    write_entries(repo.root, 2)
    script = _fake(tmp_path)
    asked: list[str] = []

    def answer(question: str, default: bool = False) -> bool:
        asked.append(question)
        return len(asked) > 1  # declines the first time, agrees the second

    monkeypatch.setattr(output, "confirm", answer)
    operation = load_operation("consolidate")
    ctx = OpContext.at_terminal(repo.root)
    request = {"runner": "command", "runnerCommand": str(script)}
    with pytest.raises(GitMemoryError) as declined:
        operation.invoke(ctx, request)
    assert declined.value.code == "GM_APPROVAL_DECLINED"
    assert _spawned(script) == 0
    done = operation.invoke(OpContext.at_terminal(repo.root), request)
    assert done.status == "staged"
    assert len(asked) == 2
