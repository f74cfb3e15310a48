"""Verification with a model of any method: the method's ratio, its typed findings and the one
reader of a stored result."""
