"""The trial machinery every method's validation stands on: the relevant population read once,
its topic groups, the validation's settings, the trials cut like the case and their folds."""
