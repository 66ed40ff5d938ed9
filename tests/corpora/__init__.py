"""Corpora for the secret guard (field names and texts) and the answer guard (values), shared by the tests."""
