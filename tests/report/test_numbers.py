"""Counts and measured values are written one way for a person (desktop and report)."""

from taveer_desktop.presentation.numbers import count, decimal, plural


def test_counts_agree_with_their_noun_and_are_grouped():
    assert count(1, "run") == "1 run"
    assert count(0, "run") == "0 runs"
    assert count(2, "sentence") == "2 sentences"
    assert count(1204, "document") == "1,204 documents"
    assert count(3, "dropped file") == "3 dropped files"
    assert plural("stability check") == "stability checks"
    assert count(2, "match") == "2 matches"


def test_measured_values_have_fixed_decimals():
    assert decimal(0.5389709414624158) == "0.539"
    assert decimal(1234.5678, 2) == "1,234.57"


def test_the_importance_heading_says_what_the_labelled_features_carry():
    from taveer_desktop.presentation.importance_text import labelled_share, stack_heading

    heading = stack_heading("L_N: different authors", 0.2, 1058, [0.001, 0.0014])
    assert heading.splitlines() == [
        "L_N: different authors",
        "Σλ = 0.2000 over 1,058 features",
        "the 2 labelled carry 1.2 %",
    ]
    assert stack_heading("L_Y: same author", 0.1, 1, [0.1]).splitlines()[1:] == [
        "Σλ = 0.1000 over 1 feature"  # all labelled: nothing to say about a share
    ]
    assert labelled_share(0.0, []) is None


def test_the_written_report_shows_no_raw_numbers_or_codes(demo_report):
    """The report of a real run, read back with poppler's pdftotext: no raw float, raw code,
    disagreeing count, hedged plural or ungrouped count (tests/number_scan.py)."""
    from number_scan import unformatted

    from report.conftest import poppler

    text = poppler("pdftotext", "-layout", str(demo_report.pdf), "-")
    assert "likelihood ratio" in text.lower() and "Σλ" in text  # the findings were read
    lines = [" ".join(line.split()) for line in text.splitlines()]
    found = sorted(set(unformatted(lines)))
    assert found == [], "\n".join(found)
