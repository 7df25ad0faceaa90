"""Consolidation of approved entries into scenes and doctrine: patch rules and heat."""
