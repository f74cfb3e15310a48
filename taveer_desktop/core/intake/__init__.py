"""Reading what a person hands the program: files, encodings, corpora in their layouts, hidden text
and near-duplicate documents."""
