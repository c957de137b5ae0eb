"""The studio: a live page of one game in the browser, rebuilt on every save (``punchboard serve``).

It sits above the generator and the verifier, like the CLI, because it shows both.
"""
