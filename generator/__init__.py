"""Layout → PDF, in four stages: draw → impose → document → export; ``build`` runs them.

Installed as ``punchboard.generator``. Reads the punchboard model; never imports the verifier or the CLI.
"""
