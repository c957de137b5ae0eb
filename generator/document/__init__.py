"""Stage 3, sheets into files: the PDF writer, cover, bill-of-materials and calibration pages, the combined PDF."""
