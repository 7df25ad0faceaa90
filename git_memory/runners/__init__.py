"""Restricted runners: profiles, isolated processes, conformance, plans and approvals.

A runner is a separate, tool-less, ephemeral process that receives one task as stdin and
answers one JSON document. Nothing reaches it without an approved plan (`plans.py`), a signed
conformance record bound to the exact binary (`conformance.py`) and an isolated environment
(`environment.py`). `builtin` is the exception: it runs in this process and sends nothing.
"""
