"""Benchmarks of faultlens against the tools people use today (see docs/benchmarks.md)."""
