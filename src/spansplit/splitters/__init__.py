"""Splitters: small configured objects composing boundaries, sizing and packing."""
