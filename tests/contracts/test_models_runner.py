"""Runner profile, execution plan and manifest limits."""

from __future__ import annotations

from typing import Any

import pytest

from tests.contracts.model_examples import DELETE, EXAMPLES, hx, model_for, refused

PROFILE = "git-memory-runner-profile@v1"
PLAN = "git-memory-runner-execution-plan@v1"
MANIFEST = "git-memory-authorization-manifest@v1"

CASES: list[tuple[str, tuple[Any, ...], Any, str]] = [
    (PROFILE, ("toolPolicy",), "all", "tools allowed"),
    (PROFILE, ("network",), "any", "open network"),
    (PROFILE, ("ephemeral",), "optional", "persistent session"),
    (PROFILE, ("timeoutMs",), 300001, "timeout above 5 min"),
    (PROFILE, ("timeoutMs",), 0, "zero timeout"),
    (PROFILE, ("maxOutputBytes",), 4 * 1024 * 1024 + 1, "stdout cap above 4 MiB"),
    (PROFILE, ("maxStderrBytes",), 64 * 1024 + 1, "stderr cap above 64 KiB"),
    (PROFILE, ("adapter",), "gemini-cli", "unknown adapter"),
    (PROFILE, ("conformance", "testVersion"), "", "empty conformance"),
    (PLAN, ("planDigest",), "x" * 64, "plan digest"),
    (PLAN, ("taskKind",), "review", "task kind"),
    (PLAN, ("inputCoverage", 0, "sourceKind"), "home-dir", "coverage source kind"),
    (PLAN, ("inputCoverage", 0, "bytes"), -1, "negative bytes"),
    (PLAN, ("inputCoverage", 0, "truncated"), "false", "string is not a bool"),
    (PLAN, ("inputCoverage", 0, "truncated"), 0, "int is not a bool"),
    (PLAN, ("bytesToSend",), True, "bool is not a byte count"),
    (PLAN, ("runnerProfile",), "claude", "profile is a digest"),
    (PLAN, ("bytesToSend",), 2**53, "unsafe integer"),
    (PLAN, ("localSessionPersistence",), "ephemeral", "session persistence"),
    (PLAN, ("providerRetention",), "forever", "retention"),
    (PLAN, ("authorization",), "denied", "authorization"),
    (PLAN, ("endpoint",), "", "empty endpoint"),
    (MANIFEST, ("plans",), [], "empty manifest"),
    (
        MANIFEST,
        ("plans",),
        [
            {
                "planDigest": f"{i:064x}",
                "taskKind": "extraction",
                "taskId": f"t{i}",
                "bytesToSend": 0,
            }
            for i in range(9)
        ],
        "9 plans",
    ),
    (MANIFEST, ("plans", 1, "planDigest"), hx("a"), "duplicate plan"),
    (MANIFEST, ("totalBytes",), 41, "total is not the sum"),
    (MANIFEST, ("manifestDigest",), DELETE, "digest field required"),
]


@pytest.mark.parametrize(("name", "path", "value", "why"), CASES, ids=[c[3] for c in CASES])
def test_limit_is_enforced(name: str, path: tuple[Any, ...], value: Any, why: str) -> None:
    assert refused(name, path, value)


def test_profile_defaults_are_the_restricted_limits() -> None:
    document = EXAMPLES[PROFILE]()
    for key in (
        "toolPolicy",
        "network",
        "ephemeral",
        "timeoutMs",
        "maxOutputBytes",
        "maxStderrBytes",
        "conformance",
    ):
        del document[key]
    profile = model_for(PROFILE).model_validate(document)
    assert (profile.tool_policy, profile.network, profile.ephemeral) == (
        "none",
        "model-only",
        "required",
    )
    assert (profile.timeout_ms, profile.max_output_bytes, profile.max_stderr_bytes) == (
        300000,
        4 * 1024 * 1024,
        64 * 1024,
    )
    assert profile.conformance is None


def test_tighter_limits_are_accepted() -> None:
    document = {**EXAMPLES[PROFILE](), "timeoutMs": 500, "maxOutputBytes": 65536}
    assert model_for(PROFILE).model_validate(document).timeout_ms == 500
