"""Restricted runners: the Runner protocol, profiles, isolated processes, conformance, plans
and approvals.

A flow hands a `Runner` (`runner.py`) its task contracts and stages each answer. The model
runners are separate, tool-less, ephemeral processes that receive one task as stdin and answer
one JSON document. Nothing reaches them without an approved plan (`plans.py`), a signed
conformance record bound to the exact binary (`conformance.py`) and an isolated environment
(`environment.py`). The `builtin` runner is the extract flow's own (`extract/builtin/`): it
runs in this process and sends nothing. Runners import nothing from the flows above them.
"""
