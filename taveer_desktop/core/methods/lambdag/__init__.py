"""LambdaG (Nini et al.): grammar models on POSNoise-masked text, its model part, evidence,
validation and stability."""
