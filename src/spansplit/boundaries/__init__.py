"""Boundary finders: one module per structure, each yielding candidate spans."""
