"""Security gates (trust_gate): secret scanners (gitleaks, trufflehog,
detect-secrets), static analysers (bandit, semgrep, eslint-plugin-security),
dependency audits (npm audit, pip-audit) and a CONFIDENCE.md gate; one
module per kind of tool.

Never automatic: every finding is escalated for human review.  The secret a
scanner names goes into ``hint["_secret"]``; the engine moves it into its
vault and masks it in every field of every record (classifier/redact.py).
The text output people see is what is covered here; the JSON/SARIF reports
of these tools are structured inputs (classifier/structured/).
"""

from __future__ import annotations

from . import analysers, audits, gate, secret_scanners

__all__ = ["analysers", "audits", "gate", "secret_scanners"]
