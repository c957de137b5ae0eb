"""Layout → PDF. Reads the punchboard model; never imports the verifier."""
