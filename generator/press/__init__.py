"""Press output: CMYK PDF/X-1a:2003 files a print shop's intake accepts, and the press preflight.

``settings`` reads ``layouts/press.yaml`` and the shop presets' colour keys; ``pdfx`` converts a finished PDF
through Ghostscript and finishes its PDF/X structure with pikepdf; ``gamut`` and ``coverage`` are the press
preflight; ``shop_sizes`` sets a deck's trim against the products a shop sells; ``run`` is what ``build`` calls.
"""
