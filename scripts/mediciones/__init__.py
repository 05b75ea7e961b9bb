"""The benchmarks (``make bench``, ``make bench-exportar``): each ``bench_*.py`` is a program that measures
and prints; none is a test and no test asserts a timing.  See ``scripts/mediciones/README.md``."""
