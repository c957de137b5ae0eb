"""Stage 2, pieces onto sheets: grids, backs and duplex, marks, print-shop pages, one module per component kind."""
