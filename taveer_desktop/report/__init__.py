"""The PDF case report: what it says (content.py) and how it is painted (pdf.py)."""
