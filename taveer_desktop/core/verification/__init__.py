"""Verification with a model of any method: the method's ratio and the one reader of a stored
result."""
