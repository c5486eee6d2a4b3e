"""The assertion language grammar, shipped as package data."""
