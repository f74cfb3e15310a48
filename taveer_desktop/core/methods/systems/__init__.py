"""The ten comparison systems of the TAVeer paper's evaluation, the interface they implement and
their shared validation, calibration and verification."""
