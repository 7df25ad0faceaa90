"""Every published contract, for the JSON Schemas shipped in the package and the drift test.

A contract is listed by its module and class so importing the catalog stays cheap; the
`format` literal of each model names its schema file
`git_memory/schemas/<format name>.v1.schema.json`, which `git memory schema NAME` prints.
`python -m git_memory.contracts.catalog` rewrites that directory; a test fails when it is stale.
"""

from __future__ import annotations

import importlib
import json
from pathlib import Path
from typing import Any

from git_memory import output
from git_memory.contracts.base import without_null_defaults

SCHEMA_DIRECTORY = Path(__file__).resolve().parent.parent / "schemas"
SCHEMA_SUFFIX = ".schema.json"

CONTRACTS: tuple[tuple[str, str], ...] = (
    ("git_memory.contracts.binding", "RepositoryBinding"),
    ("git_memory.contracts.status", "InitResponse"),
    ("git_memory.contracts.status", "StatusResponse"),
    ("git_memory.contracts.assemble", "AssembleRequest"),
    ("git_memory.contracts.assemble", "AssembleResponse"),
    ("git_memory.contracts.assemble", "ContextRequest"),
    ("git_memory.contracts.assemble", "ContextResponse"),
    # --- memory files, lint, hooks, index (issue 3) ---
    ("git_memory.contracts.lint", "LintRequest"),
    ("git_memory.contracts.lint", "LintResponse"),
    ("git_memory.contracts.memory_files", "FmtRequest"),
    ("git_memory.contracts.memory_files", "FmtResponse"),
    ("git_memory.contracts.memory_files", "ReindexRequest"),
    ("git_memory.contracts.memory_files", "ReindexResponse"),
    ("git_memory.contracts.memory_files", "MergeIndexRequest"),
    ("git_memory.contracts.memory_files", "MergeIndexResponse"),
    ("git_memory.contracts.memory_files", "HooksRequest"),
    ("git_memory.contracts.memory_files", "HooksResponse"),
    # --- memory state, search (issue 5) ---
    ("git_memory.contracts.search", "SearchRequest"),
    ("git_memory.contracts.search", "SearchResponse"),
    # --- session index (issue 4) ---
    ("git_memory.contracts.sessions", "SessionsSyncRequest"),
    ("git_memory.contracts.sessions", "SyncSummary"),
    ("git_memory.contracts.sessions", "SessionsListRequest"),
    ("git_memory.contracts.sessions", "SessionsList"),
    ("git_memory.contracts.sessions", "SessionsShowRequest"),
    ("git_memory.contracts.sessions", "SessionShow"),
    # --- flow contracts (issue 2, item 5) ---
    ("git_memory.contracts.extraction", "MemoryExtractionRequest"),
    ("git_memory.contracts.extraction", "ExtractionTask"),
    ("git_memory.contracts.extraction", "CandidateDraftBatch"),
    ("git_memory.contracts.assessment", "EvidenceAssessment"),
    ("git_memory.contracts.adjudication", "AdjudicationTask"),
    ("git_memory.contracts.adjudication", "AdjudicationResult"),
    ("git_memory.contracts.runner", "RunnerProfile"),
    ("git_memory.contracts.runner", "RunnerExecutionPlan"),
    ("git_memory.contracts.runner", "AuthorizationManifest"),
    ("git_memory.contracts.promotion", "PrepareRequest"),
    ("git_memory.contracts.promotion", "PromotionPlan"),
    ("git_memory.contracts.promotion_ops", "PreparedPlan"),
    ("git_memory.contracts.promotion_ops", "PromoteRequest"),
    ("git_memory.contracts.promotion_ops", "PromotionResult"),
    ("git_memory.contracts.consolidation", "ConsolidationTask"),
    ("git_memory.contracts.consolidation", "ConsolidationPatch"),
    ("git_memory.contracts.consolidation", "Synthesis"),
    ("git_memory.contracts.skill", "SkillCandidate"),
    # --- consolidation requests (issue 9) ---
    ("git_memory.contracts.consolidation_ops", "SynthesizeRequest"),
    ("git_memory.contracts.consolidation_ops", "ConsolidateRequest"),
    ("git_memory.contracts.consolidation_ops", "ConsolidateResult"),
    ("git_memory.contracts.recall", "AgentRecall"),
    ("git_memory.contracts.stage", "AgentStage"),
    ("git_memory.contracts.review", "Review"),
    # --- agent-native extraction requests (issue 6) ---
    ("git_memory.contracts.requests", "RecallRequest"),
    ("git_memory.contracts.requests", "ReviewRequest"),
    ("git_memory.contracts.requests", "DiscardRequest"),
    ("git_memory.contracts.requests", "DiscardResponse"),
    # --- agents' own memory (issue 32) ---
    ("git_memory.contracts.harvest", "HarvestRequest"),
    ("git_memory.contracts.harvest", "HarvestResponse"),
    # --- keeping memory true: verify, list, retire ---
    ("git_memory.contracts.lifecycle", "VerifyRequest"),
    ("git_memory.contracts.lifecycle", "VerifyResponse"),
    ("git_memory.contracts.impact", "ImpactRequest"),
    ("git_memory.contracts.impact", "ImpactResponse"),
    ("git_memory.contracts.lifecycle", "ListRequest"),
    ("git_memory.contracts.lifecycle", "ListResponse"),
    ("git_memory.contracts.lifecycle", "RetireRequest"),
)


def contract_models() -> list[Any]:
    """The model classes of every published contract."""
    models = []
    for module_name, class_name in CONTRACTS:
        models.append(getattr(importlib.import_module(module_name), class_name))
    return models


def format_of(model: Any) -> str:
    """The `format` literal of a contract model (`git-memory-<name>@v1`)."""
    field = model.model_fields["format"]
    return str(field.default)


def schema_filename(model: Any) -> str:
    """`git-memory-<name>.v1.schema.json`."""
    name, version = format_of(model).split("@")
    return f"{name}.{version}.schema.json"


def schema_document(model: Any) -> str:
    """The JSON Schema text of one model, stable across runs."""
    schema = without_null_defaults(model.model_json_schema(mode="validation"))
    schema["$id"] = f"https://git-team-memory.invalid/schema/{schema_filename(model)}"
    schema["$schema"] = "https://json-schema.org/draft/2020-12/schema"
    return json.dumps(schema, indent=2, sort_keys=True, ensure_ascii=False) + "\n"


def write_schemas(directory: Path = SCHEMA_DIRECTORY) -> list[str]:
    """Rewrite the schema files from the models; the names written or removed."""
    expected = {schema_filename(m): schema_document(m) for m in contract_models()}
    directory.mkdir(parents=True, exist_ok=True)
    touched = []
    for name, text in sorted(expected.items()):
        path = directory / name
        if not path.is_file() or path.read_text(encoding="utf-8") != text:
            path.write_text(text, encoding="utf-8")
            touched.append(name)
    for path in sorted(directory.glob("*" + SCHEMA_SUFFIX)):
        if path.name not in expected:
            path.unlink()
            touched.append(path.name)
    return touched


def main() -> None:
    """Rewrite git_memory/schemas/ from the contract models."""
    for name in write_schemas():
        output.echo(f"wrote {SCHEMA_DIRECTORY.name}/{name}")


if __name__ == "__main__":
    main()
