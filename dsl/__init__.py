"""The assertion language: parse rules into a syntax tree."""
