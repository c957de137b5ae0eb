"""Setup simulation: running a variant's steps on the physical inventory, per scope (the variant's own
steps, each table's), with what each step reads and writes and what a Monte Carlo replay may leave out."""
