//! Fixed-position search benchmarks printed as JSON lines.
