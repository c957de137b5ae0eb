"""The spec: the immutable model, the YAML loader with located errors, schemas, expressions, the setup language."""
