"""Course tooling: sample submissions, the TA's grading job, benchmarks."""
