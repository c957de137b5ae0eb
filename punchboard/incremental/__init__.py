"""The incremental layer: every record punchboard keeps to skip work, and the one rule they obey.

The stage rooms (spec, draw, impose, document, export, preflight, press) make things; they ask this room whether
something is already made and never know how it is kept. Every on-disk record format lives here: record file
names and suffixes, headers and versions, keys and digests, the seal every record is written with (sealed.py: a
record that does not read back whole is work to do again, never a wrong file) and the size bound of the user's
cache folder (cache_bound.py). This room imports punchboard.plumbing and the spec's model only, so the loader
and the generator can both use it (tests/architecture/test_import_rules.py).
"""
