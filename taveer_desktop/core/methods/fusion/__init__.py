"""The fusion of two or more methods' calibrated log-likelihood ratios into one."""
