"""The PDF case report: what a stored verification run says, written for court.

Pure modules (no Qt) decide what the report says: ``inputs`` gathers a run and its evidence
from the project store, ``content`` turns them into numbered sections of plain blocks
(``blocks``), ``wording`` holds the fixed explanatory text, ``chart_layout`` computes the
charts, ``excerpts`` finds features in the questioned text, ``escape`` makes any document text
safe to print. The Qt modules paint that content: ``chart_painter`` draws the charts with
QPainter, ``pdf_flow`` paginates blocks into pages, ``pdf`` writes the A4 PDF (and renders
preview images). ``export`` runs the whole job: integrity check, content, PDF written
atomically, SHA-256 recorded in the audit log. See docs/report.md.
"""
