"""The evaluation corpus and its scorer (eval/README.md)."""
