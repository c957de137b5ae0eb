"""Setup and deal simulation. Installed as ``punchboard.verifier``.

Reads the punchboard model; never imports the generator or the CLI.
"""
