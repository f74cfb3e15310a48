"""Scores into likelihood ratios: calibration, ELUB bounds, length bands, quality measures, the
inconclusive band and the outcome vocabulary, with the typed findings of each method's ratio."""
