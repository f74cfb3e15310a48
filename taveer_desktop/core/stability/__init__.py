"""How stable a stated ratio is under resampling, for every method."""
