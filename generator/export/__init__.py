"""Stage 4, other outputs from the same drawing: PNG images, contact-sheet previews, Tabletop Simulator."""
