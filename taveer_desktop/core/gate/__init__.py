"""May a verification be stated as an evaluative conclusion? The fitness-for-purpose gate, the
conditions a model holds for, the population fit check and the validation a conclusion rests on."""
