"""TAVeer (Halvani, Graner, Regev): its model file, training, ensemble, distances, verification,
interpretation and resampling stability."""
