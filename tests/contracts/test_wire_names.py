"""Python names are snake_case, the wire stays camelCase: documents keep their exact bytes.

`golden/` holds the canonical bytes of the example documents (and of the requests whose
every field has a default) as the package wrote them before its fields were renamed to
snake_case; see golden/README.md.
"""

from __future__ import annotations

import ast
import json
from pathlib import Path
from typing import Any

import pytest

from git_memory.contracts.base import Model, wire_name
from git_memory.contracts.canonical import canonical_json
from git_memory.contracts.catalog import contract_models, format_of, schema_filename
from git_memory.errors import GitMemoryError
from tests.conftest import run_cli
from tests.contracts.model_examples import EXAMPLES, hx, model_for
from tests.repos import Repo

GOLDEN = Path(__file__).resolve().parent / "golden"
PACKAGE = Path(__file__).resolve().parents[2] / "git_memory"
MODELS = {format_of(model): model for model in contract_models()}


def golden_path(name: str) -> Path:
    return GOLDEN / schema_filename(MODELS[name]).replace(".schema.json", ".json")


def golden_names() -> list[str]:
    names = {path.name for path in GOLDEN.glob("*.json")}
    return sorted(name for name in MODELS if golden_path(name).name in names)


def canonical_line(model: Any) -> bytes:
    return canonical_json(model.to_json()) + b"\n"


def test_every_example_and_every_default_request_has_a_golden() -> None:
    defaults = set()
    for name, model in MODELS.items():
        try:
            model.model_validate({})
        except ValueError:
            continue
        defaults.add(name)
    assert set(golden_names()) == set(EXAMPLES) | defaults
    assert len(list(GOLDEN.glob("*.json"))) == len(golden_names())


@pytest.mark.parametrize("name", sorted(EXAMPLES))
def test_example_serializes_to_its_golden_bytes(name: str) -> None:
    model = model_for(name).model_validate(EXAMPLES[name]())
    assert canonical_line(model) == golden_path(name).read_bytes()


@pytest.mark.parametrize("name", golden_names())
def test_golden_document_validates_and_reserializes_identically(name: str) -> None:
    raw = golden_path(name).read_bytes()
    model = MODELS[name].model_validate(json.loads(raw))
    assert canonical_line(model) == raw
    rebuilt = MODELS[name](**{field: getattr(model, field) for field in MODELS[name].model_fields})
    assert canonical_line(rebuilt) == raw


def _all_models() -> list[type[Model]]:
    contract_models()
    found: list[type[Model]] = []
    pending: list[type[Model]] = [Model]
    while pending:
        model = pending.pop()
        pending.extend(model.__subclasses__())
        if model is not Model:
            found.append(model)
    return found


def test_every_field_is_snake_case_with_its_camel_wire_name() -> None:
    models = _all_models()
    assert len(models) > len(MODELS)
    for model in models:
        for name, field in model.model_fields.items():
            assert name == name.lower(), f"{model.__name__}.{name} is not snake_case"
            assert field.alias == wire_name(name), f"{model.__name__}.{name}"


def test_wire_name_inverts_snake_case() -> None:
    assert wire_name("task_id") == "taskId"
    assert wire_name("based_on_entry_ids") == "basedOnEntryIds"
    assert wire_name("format") == "format"
    assert wire_name("memoryRoot") == "memoryRoot"


def test_python_names_and_wire_names_build_the_same_document() -> None:
    from git_memory.contracts.extraction import Lease, OwnerKeys

    by_name = OwnerKeys(repository_key=hx("1"), worktree_key=hx("2"))
    by_wire = OwnerKeys.model_validate({"repositoryKey": hx("1"), "worktreeKey": hx("2")})
    assert by_name == by_wire
    assert by_name.to_json() == {"repositoryKey": hx("1"), "worktreeKey": hx("2")}
    assert Lease(holder="h", expires_at=5).to_json() == {"holder": "h", "expiresAt": 5}


def test_validation_errors_name_the_wire_field() -> None:
    from pydantic import ValidationError

    from git_memory.ops.base import request_invalid

    name = "git-memory-extraction-task@v1"
    document = EXAMPLES[name]()
    document["binding"]["sourceInputDigest"] = "not-a-digest"
    with pytest.raises(ValidationError) as caught:
        model_for(name).model_validate(document)
    error = request_invalid(caught.value, model_for(name))
    assert error.code == "GM_REQUEST_INVALID"
    assert "binding.sourceInputDigest:" in error.message
    assert error.details["errors"][0]["field"] == "binding.sourceInputDigest"


def _dump_calls_without_alias(path: Path) -> list[str]:
    found = []
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"))):
        if not (isinstance(node, ast.Call) and isinstance(node.func, ast.Attribute)):
            continue
        if node.func.attr not in {"model_dump", "model_dump_json"}:
            continue
        by_alias = [k for k in node.keywords if k.arg == "by_alias"]
        if not (
            by_alias and isinstance(by_alias[0].value, ast.Constant) and by_alias[0].value.value
        ):
            found.append(f"{path.relative_to(PACKAGE.parent)}:{node.lineno}")
    return found


def test_every_dump_in_the_package_writes_wire_names() -> None:
    # pydantic dumps by field name unless told otherwise; a dump without `by_alias=True`
    # would put snake_case keys on the wire.
    offenders = [
        hit for path in sorted(PACKAGE.rglob("*.py")) for hit in _dump_calls_without_alias(path)
    ]
    assert offenders == []


def test_a_document_spelled_with_python_names_is_refused() -> None:
    from pydantic import ValidationError

    from git_memory.contracts.extraction import OwnerKeys

    snake = {"repository_key": hx("1"), "worktree_key": hx("2")}
    with pytest.raises(ValidationError) as caught:
        OwnerKeys.model_validate(snake)
    assert {error["type"] for error in caught.value.errors()} == {"missing", "extra_forbidden"}
    with pytest.raises(ValidationError):
        OwnerKeys.model_validate_json(json.dumps(snake))
    assert OwnerKeys(**snake) == OwnerKeys.model_validate(
        {"repositoryKey": hx("1"), "worktreeKey": hx("2")}
    )


def test_a_staged_document_with_a_python_name_inside_is_refused() -> None:
    import copy

    from git_memory.contracts.requests import StageRequest
    from git_memory.ops.base import load_operation

    document = EXAMPLES["git-memory-candidate-draft-batch@v1"]()
    assert StageRequest.model_validate(document).to_json() == document
    nested = copy.deepcopy(document)
    statement = nested["candidates"][0]["statements"][0]
    statement["statement_id"] = statement.pop("statementId")
    top = {("task_id" if key == "taskId" else key): value for key, value in document.items()}
    for renamed in (nested, top):
        with pytest.raises(GitMemoryError) as caught:
            load_operation("stage").parse_request(json.dumps(renamed))
        assert caught.value.code == "GM_REQUEST_INVALID"
        with pytest.raises(GitMemoryError):
            load_operation("stage").parse_request(renamed)


def test_the_cli_refuses_a_request_file_with_python_names(repo: Repo, tmp_path: Path) -> None:
    request = tmp_path / "discard.json"
    request.write_text(json.dumps({"candidate_id": "extract-0123456789abcdef-c1"}))
    result = run_cli(["discard", "--request", str(request)], cwd=repo.root)
    assert result.exit_code == 2, result.stdout + result.stderr
    assert "GM_REQUEST_INVALID" in result.stderr
    assert "candidateId" in result.stderr
