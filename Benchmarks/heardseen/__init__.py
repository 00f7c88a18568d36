"""The analysis and driving behind Benchmarks/heard_seen.py, one module per step."""
