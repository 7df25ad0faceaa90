"""Every flow contract: a valid example validates and round-trips through JSON unchanged."""

from __future__ import annotations

import json
from typing import Any

import pytest

from git_memory.contracts.catalog import CONTRACTS, contract_models, format_of
from tests.contracts.model_examples import EXAMPLES

FLOW_MODULES = {
    f"git_memory.contracts.{name}"
    for name in [
        "extraction",
        "adjudication",
        "assessment",
        "promotion",
        "runner",
        "consolidation",
        "skill",
        "recall",
        "review",
        "stage",
    ]
}
FLOW_MODELS = {
    format_of(model): model
    for (module, _), model in zip(CONTRACTS, contract_models(), strict=True)
    if module in FLOW_MODULES
}


def test_every_flow_contract_has_an_example() -> None:
    assert set(FLOW_MODELS) == set(EXAMPLES)


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_round_trips_through_json(name: str) -> None:
    model_class: Any = FLOW_MODELS[name]
    model = model_class.model_validate(EXAMPLES[name]())
    assert model.format == name
    again = model_class.model_validate(json.loads(json.dumps(model.to_json())))
    assert again == model
    assert again.to_json() == model.to_json()
    assert again.digest() == model.digest()


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_unknown_fields_and_wrong_format_are_refused(name: str) -> None:
    from pydantic import ValidationError

    model_class: Any = FLOW_MODELS[name]
    with pytest.raises(ValidationError):
        model_class.model_validate({**EXAMPLES[name](), "surprise": 1})
    with pytest.raises(ValidationError):
        model_class.model_validate({**EXAMPLES[name](), "format": "git-memory-other@v1"})


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_models_are_frozen(name: str) -> None:
    from pydantic import ValidationError

    model = FLOW_MODELS[name].model_validate(EXAMPLES[name]())
    with pytest.raises(ValidationError):
        model.format = name


def test_format_is_the_default() -> None:
    from git_memory.contracts.promotion import PrepareRequest

    document = EXAMPLES["git-memory-prepare-request@v1"]()
    del document["format"], document["kind"]
    request = PrepareRequest.model_validate(document)
    assert request.to_json()["format"] == "git-memory-prepare-request@v1"
    assert request.kind == "entry"


def test_contract_modules_import_only_pydantic() -> None:
    import subprocess
    import sys

    code = (
        "import sys\n"
        "import git_memory.contracts.stage, git_memory.contracts.recall, "
        "git_memory.contracts.runner, git_memory.contracts.promotion\n"
        "heavy = {'pygit2', 'sqlite3', 'click', 'mcp', 'filelock', 'git_memory.ops'}\n"
        "print(sorted(heavy & set(sys.modules)))\n"
    )
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True)
    assert out.stdout.strip() == "[]"
