"""The `Runner` protocol: what a flow hands a runner and what it gets back.

A flow (extraction, adjudication, consolidation) hands a runner the task contracts of one
kind and stages each answer the runner yields before it asks for the next, so a crash
between two answers keeps every answer already staged. `ProcessRunner` is the sandboxed
process behind an approved plan; the builtin extractor answers in process
(`extract/builtin/runner.py`) and sends nothing.
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Sequence
from dataclasses import dataclass
from typing import Generic, Protocol, TypeVar

from pydantic import BaseModel

from git_memory import output
from git_memory.contracts.runner import AuthorizationManifest, InputCoverage, RunnerExecutionPlan
from git_memory.runners.answer import validate_answer
from git_memory.runners.session import Ask, RunnerSession


class TaskDocument(Protocol):
    """A task contract a runner answers: its id and the binding the answer must echo."""

    @property
    def task_id(self) -> str:
        """The task's id, echoed by the answer."""

    @property
    def binding(self) -> BaseModel:
        """The binding the answer echoes unchanged."""


TaskT_contra = TypeVar("TaskT_contra", bound=TaskDocument, contravariant=True)
AnswerT_co = TypeVar("AnswerT_co", covariant=True)
DocumentT = TypeVar("DocumentT", bound=TaskDocument)
ModelT = TypeVar("ModelT", bound=BaseModel)


class Runner(Protocol[TaskT_contra, AnswerT_co]):
    """Answers tasks of one kind, one answer per task it answered, in order."""

    def answer(self, tasks: Sequence[TaskT_contra]) -> Iterator[AnswerT_co]:
        """The answers to `tasks`; the caller stages each before the next is produced."""


@dataclass(frozen=True)
class DeliveryApproval:
    """How the plans of one delivery are approved (see `RunnerSession.approve`)."""

    plan: str | None = None
    manifest: str | None = None
    ask: Ask | None = None


@dataclass(frozen=True)
class Planned(Generic[DocumentT]):
    """One task, the exact bytes its runner receives and the pending plan over them."""

    task: DocumentT
    stdin: bytes
    plan: RunnerExecutionPlan


@dataclass(frozen=True)
class ProcessRunner(Generic[DocumentT, ModelT]):
    """A `Runner` over the sandboxed process: plan, approve, deliver, validate the answer.

    `stdin_of` gives the bytes a task is sent as, `coverage_of` what the plan says they
    hold; each answer is validated against `answer_model` and must echo its task."""

    session: RunnerSession
    kind: str
    answer_model: type[ModelT]
    stdin_of: Callable[[DocumentT], bytes]
    coverage_of: Callable[[DocumentT], Sequence[InputCoverage]]
    approval: DeliveryApproval = DeliveryApproval()

    def plan(self, tasks: Sequence[DocumentT]) -> list[Planned[DocumentT]]:
        """A pending, stored plan for each task; sends nothing."""
        planned = []
        for task in tasks:
            stdin = self.stdin_of(task)
            plan = self.session.plan(self.kind, task.task_id, stdin, self.coverage_of(task))
            planned.append(Planned(task, stdin, plan))
        return planned

    def manifest(self, planned: Sequence[Planned[DocumentT]]) -> AuthorizationManifest | None:
        """The stored manifest over several plans (None for a single plan)."""
        plans = [item.plan for item in planned]
        return self.session.manifest(plans) if len(plans) > 1 else None

    def answer(self, tasks: Sequence[DocumentT]) -> Iterator[ModelT]:
        """Approve the plans of `tasks` (GM_APPROVAL_REQUIRED without approval), then
        deliver each approved one and yield its validated answer."""
        for _, answer in self.deliver(self.plan(tasks)):
            yield answer

    def deliver(
        self, planned: Sequence[Planned[DocumentT]]
    ) -> Iterator[tuple[RunnerExecutionPlan, ModelT]]:
        """Approve the `planned` deliveries, then run each approved plan; yields the approved
        plan with the validated answer (a flow that planned its tasks itself calls this)."""
        if not planned:
            return
        by_id = {item.task.task_id: item for item in planned}
        approved = self.session.approve(
            [item.plan for item in planned],
            approve_plan=self.approval.plan,
            approve_manifest=self.approval.manifest,
            ask=self.approval.ask,
        )
        label = f"{self.kind} via {self.session.profile.name}"
        with output.progress(label, len(approved)) as bar:
            for plan in approved:
                item = by_id[plan.task_id]
                stdout = self.session.run(plan, item.stdin)
                binding = item.task.binding.model_dump(mode="json", by_alias=True)
                answer = validate_answer(
                    stdout, self.answer_model, task_id=item.task.task_id, binding=binding
                )
                yield plan, answer
                bar.advance()
