"""Benchmarks of arxiv-mcp; `python benchmarks/run.py` prints every figure (see BENCHMARKS.md)."""
