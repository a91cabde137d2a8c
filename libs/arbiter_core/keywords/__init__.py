"""Keyword abilities with rules of their own (CR 702): one module each."""
