"""Plumbing every stage shares: units, paths, limits, errors, atomic writes, file watching. No game knowledge."""
