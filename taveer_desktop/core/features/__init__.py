"""Text, the topic-agnostic lexicon and the style features F1-F11 counted from it."""
