"""The words of a validation record (``presentation/validation_text.py``): figures with their
intervals and meanings, the protocol, the acceptance criteria, the bound, the limits — on a real
record of the demo population and on edited copies of it."""

from __future__ import annotations

import copy

import pytest

from taveer_desktop.core.validation.record_reader import read_validation_record as R
from taveer_desktop.presentation.audit_text import recorded_time
from taveer_desktop.presentation.validation_figures_text import (
    FIGURE_NAMES,
    FIGURE_ORDER,
    acceptance_lines,
    acceptance_sentence,
    acceptance_verdict,
    figure_lines,
    figure_value,
    interval_text,
)
from taveer_desktop.presentation.validation_plot_text import ECE_PLOT, TIPPETT
from taveer_desktop.presentation.validation_report_text import (
    case_summary_sentences,
    statement_sentences,
)
from taveer_desktop.presentation.validation_text import (
    CASEWORK_MIN_AUTHORS,
    bound_sentence,
    casework_shortfalls,
    limits_sentences,
    population_pairs,
    protocol_sentences,
    ratio_text,
)
from tests.core.validation_fixtures import demo_validation_record


@pytest.fixture(scope="module")
def record(tmp_path_factory):
    return demo_validation_record(tmp_path_factory.mktemp("population"))


def test_every_figure_has_its_name_value_interval_meaning_and_reading(record):
    lines = figure_lines(R(record))
    assert [line.key for line in lines] == list(FIGURE_ORDER)
    for line in lines:
        assert line.name == FIGURE_NAMES[line.key]
        assert line.value == figure_value(line.key, record["figures"][line.key])
        assert line.interval == interval_text(line.key, record["intervals"][line.key])
        assert line.interval != "not measured" and "–" in line.interval
        assert line.meaning.endswith(".") and line.reading.endswith(".")
    by_key = {line.key: line for line in lines}
    assert by_key["misleading_y"].value.endswith(" %")
    assert by_key["cllr"].value == f"{record['figures']['cllr']:.3f}"
    # the expected calibration error is never called the empirical cross-entropy
    assert "cross-entropy" not in by_key["ece"].name.lower()
    assert "cross-entropy" in ECE_PLOT.title.lower()


def test_figure_values_and_intervals_in_words():
    assert figure_value("eer", 0.1234) == "12.3 %"
    assert figure_value("cllr", 0.84912) == "0.849"
    assert figure_value("cllr", None) == "not measured"
    assert figure_value("cllr", float("nan")) == "not measured"
    assert interval_text("auc", [0.7, 0.81]) == "0.700 – 0.810"
    assert interval_text("auc", [None, 0.81]) == "not measured"


def test_acceptance_lines_state_each_criterion_measured_and_met(record):
    lines = acceptance_lines(R(record))
    assert [line.criterion for line in lines] == [
        "Cllr at most 5",
        "both rates of misleading evidence at most 1.0 %",
    ]
    assert lines[0].met is True and lines[1].met is False
    sentence = acceptance_sentence(R(record))
    # the time the criteria were set, in words (not the raw ISO string)
    assert recorded_time(record["acceptance"]["criteria"]["set_utc"]) in sentence
    assert "before the trials were built" in sentence and "NOT met" in sentence
    none = copy.deepcopy(record)
    none["acceptance"] = {
        "criteria": {"max_cllr": None, "max_misleading": None, "set_utc": "x"},
        "results": {},
        "met": None,
    }
    assert acceptance_lines(R(none)) == []
    assert acceptance_sentence(R(none)).startswith("No acceptance criteria were set")
    assert acceptance_verdict(None) == "no acceptance criteria set"
    assert acceptance_verdict(True) == "criteria met"
    assert acceptance_verdict(False) == "criteria NOT met"


def test_protocol_in_plain_words(record):
    text = " ".join(protocol_sentences(R(record)))
    protocol = record["protocol"]
    assert f"seed {protocol['seed']}" in text
    assert f"{protocol['folds']} folds" in text
    assert f"about {protocol['questioned_chars'][0]:,} characters" in text  # [N, N]: one length
    assert f"about {protocol['known_chars'][0]:,} characters" in text
    assert f"{protocol['trials_same']:,} same-author" in text
    assert f"{protocol['bootstrap']:,} bootstrap resamples of the authors" in text
    assert "80 %" in text and "no author is on both sides" in text
    whole = copy.deepcopy(record)
    whole["protocol"]["questioned_chars"] = None
    assert "their whole length" in " ".join(protocol_sentences(R(whole)))


def test_population_bound_and_limits(record):
    pairs = dict(population_pairs(R(record)))
    assert pairs["Name"] == "demo" and pairs["SHA-256"] == record["population"]["sha256"]
    assert pairs["Authors"] == "6"
    bound = bound_sentence(R(record))
    low, high = record["bound"]["min_log10_lr"], record["bound"]["max_log10_lr"]
    assert f"between {ratio_text(low)} and {ratio_text(high)}" in bound and "Vergeer" in bound
    assert "ELUB" in bound and "cross-validated" in bound
    shortfalls = casework_shortfalls(R(record))
    assert shortfalls and "6 authors" in shortfalls[0]
    limits = limits_sentences(R(record))
    assert limits[0].startswith("Too small for casework")
    assert any("Ishihara" in s for s in limits)
    assert any(s.endswith(bound) and s.startswith("The bound") for s in limits)
    large = copy.deepcopy(record)
    large["population"]["authors"] = CASEWORK_MIN_AUTHORS
    large["protocol"]["trials_same"] = large["protocol"]["trials_different"] = 2500
    assert casework_shortfalls(R(large)) == []
    assert not limits_sentences(R(large))[0].startswith("Too small")


def test_statements_never_name_an_author_as_fact(record):
    text = " ".join(statement_sentences(R(record)) + case_summary_sentences(R(record)))
    assert "states nothing about who wrote" in text
    assert statement_sentences(R(record))[-1].startswith(
        "This validation is too small for casework"
    )
    assert "Too small for casework: 6 authors" in case_summary_sentences(R(record))[0]
    assert "relevant population “demo”" in text
    assert "Intervals: bootstrap over authors." in text
    for author in ("Hamilton", "Madison", "Charlotte", "Anne"):
        assert author not in text
    assert "Tippett" in TIPPETT.title and len(TIPPETT.series) == 2


def test_bound_ratios_keep_three_significant_digits(record):
    # the ELUB is rarely a whole number: 1/1.61 and 1.42, not 1/2 and 1
    assert ratio_text(-0.20567576737357224) == "1/1.61"
    assert ratio_text(0.1532283760) == "1.42"
    assert ratio_text(2.5065) == "321" and ratio_text(-2.5065) == "1/321"
    assert ratio_text(0.0) == "1"
    edited = copy.deepcopy(record)
    edited["bound"].update(min_log10_lr=-0.20567576737357224, max_log10_lr=0.1532283760)
    assert "between 1/1.61 and 1.42" in bound_sentence(R(edited))
    edited["bound"].update(min_log10_lr=0.0, max_log10_lr=0.0)
    assert "every likelihood ratio of this model is 1" in bound_sentence(R(edited))
    older = copy.deepcopy(record)  # a record made with the count rule states its own rule
    older["bound"].update(min_log10_lr=-2.0, max_log10_lr=2.0, rule="log10 LR clipped to ...")
    assert "doing better" not in bound_sentence(R(older))
    assert "between 1/100 and 100" in bound_sentence(R(older))


def test_the_repeats_note_says_what_the_record_will_state():
    """The wizard's Repeats box shows what is asked; the note says what a population of
    casework size will get instead (issue 30: the box said 3 where the record said 10)."""
    from taveer_desktop.core.trials.validation_settings import repeats_used
    from taveer_desktop.presentation.validation_range_text import repeats_note

    assert repeats_used(3, 1000, 20) == 10 and repeats_used(3, 1000, 19) == 3
    assert repeats_used(3, 1000, 68) == 3 and repeats_used(3, 80, 20) == 3  # 80 trials: no room
    raised = repeats_note(3, repeats_used(3, 1000, 20), 20)
    assert raised.startswith(
        "This population (20 authors) will be validated with 10 repeats, not 3"
    )
    assert "200 author-repeats" in raised and "the record states the repeats used" in raised
    assert (
        repeats_note(3, 3, 68)
        == "This population (68 authors) is validated with 3 repeats, as set."
    )
    assert (
        repeats_note(1, 1, 5) == "This population (5 authors) is validated with 1 repeat, as set."
    )
    assert repeats_note(3, 3, None) == ""
