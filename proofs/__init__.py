"""Proofs about the spec: `baloot verify` (invariants, by z3 and by exploring the
generated engine) and `baloot explore` (witnesses that separate the readings of
each variant). Everything is computed from the spec model that the generator
reads; `symbolic` translates its rules to z3."""
