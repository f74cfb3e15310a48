"""The reports of LambdaG and fused models: the case report of a real project validated and
verified with each method (``tests/method_fixtures``), a hostile questioned document verified
with the fused model, and the validation report of both records — read back with pypdf and
poppler, every number compared with the stored run, model and record; the highlighted evidence
looked for in the painted page."""

from __future__ import annotations

import json
import re

import pytest
from PySide6.QtGui import QColor

from taveer_desktop.core.calibration.method_findings import (
    SentenceEvidence,
    TokenEvidence,
    TokenKind,
)
from taveer_desktop.core.calibration.outcome import ConclusionKind
from taveer_desktop.core.features.feature_stream import prepare_text
from taveer_desktop.core.features.lexicon import default_lexicon
from taveer_desktop.core.ground.registry import method_name
from taveer_desktop.core.methods.lambdag.lambdag_model import LambdaGPart, fusion_of
from taveer_desktop.core.methods.taveer.sentence_agreement import sentence_leanings
from taveer_desktop.core.validation.record_reader import read_validation_record as R
from taveer_desktop.presentation import numbers
from taveer_desktop.presentation.conclusion_text import format_lr
from taveer_desktop.presentation.fusion_text import (
    fusion_sentence,
    record_method_name,
)
from taveer_desktop.presentation.lambdag_evidence_text import share_text, strongest
from taveer_desktop.presentation.method_agreement import (
    AGREEMENT_MEANING,
    AT_BOUND,
    LAMBDAG_METHOD,
    SHARE_MEANING,
    agreement_sentence,
    lr_direction,
    model_fusion_weights,
)
from taveer_desktop.presentation.method_report_text import (
    LAMBDAG_EVIDENCE_HEAD,
    LAMBDAG_VARIANT,
    MARK_MIN_SHARE,
    SENTENCES_SHOWN,
    legend_lines,
    mark_levels,
    sentence_label,
)
from taveer_desktop.presentation.method_validation_text import score_plot_text
from taveer_desktop.presentation.validation_figures_text import figure_value
from taveer_desktop.presentation.validation_report_text import validated_method
from taveer_desktop.report.content import SECTION_TITLES
from taveer_desktop.report.content_lambdag_evidence import (
    SENTENCE_WINDOW,
    TOWARDS_HD_FILL,
    TOWARDS_HP_FILL,
    highlighted,
)
from taveer_desktop.report.export import export_report, prepare_report
from taveer_desktop.report.pdf import (
    MARGIN_BOTTOM,
    MARGIN_LEFT,
    MARGIN_RIGHT,
    MARGIN_TOP,
    PAGE_HEIGHT,
    PAGE_WIDTH,
    RenderedReport,
)
from taveer_desktop.store import KNOWN, QUESTIONED, ProjectStore
from taveer_desktop.store.case_verification import verify_case
from tests.cli.test_cli import run
from tests.method_fixtures import method_project_copy
from tests.report.conftest import (
    RTL_OVERRIDE,
    hostile_text,
    normalised,
    poppler,
    read_report,
)

HOSTILE_CASE = "H-1"


def has(text: str, piece: str) -> bool:
    """Whether ``piece`` is in the extracted ``text``, white space aside (pypdf splits some
    words, e.g. "λ G")."""
    return re.sub(r"\s+", "", normalised(piece)) in re.sub(r"\s+", "", text)


def _add_hostile_case(project, folder) -> None:
    """A second case whose questioned document is hostile, verified with the case M-1's model."""
    evidence = folder / "hostile-evidence"
    evidence.mkdir()
    questioned = evidence / f"<script>q{RTL_OVERRIDE}.txt"
    questioned.write_text(hostile_text("The questioned one."), encoding="utf-8")
    with ProjectStore.open(project) as store:
        first = store.cases.find("M-1")
        model = store.runs.list_for_case(first.id)[-1].model_name
        case = store.cases.create(HOSTILE_CASE, "<h1>hostile</h1>", "<b>E</b>")
        known = []
        for i, doc in enumerate(store.documents.in_use(first.id, KNOWN)):
            path = evidence / f"known {i}.txt"
            path.write_text(store.documents.text(doc.id), encoding="utf-8")
            known.append(path)
        store.documents.add(case.id, KNOWN, known)
        store.documents.add(case.id, QUESTIONED, [questioned])
        verify_case(store, case.id, model, stability_resamples=None)


def _export(project, folder, case_number: str):
    pdf = folder / f"{case_number}.pdf".replace("<", "_")
    with ProjectStore.open(project) as store:
        exported = export_report(store, case_number, pdf)
    return read_report(project, pdf, exported)


@pytest.fixture(scope="module")
def fused(tmp_path_factory, qapp, built_once):
    folder = tmp_path_factory.mktemp("fused-report")
    project = method_project_copy(built_once, folder, "fusion")
    _add_hostile_case(project, folder)
    return project, folder, _export(project, folder, "M-1")


@pytest.fixture(scope="module")
def lambdag(tmp_path_factory, qapp, built_once):
    folder = tmp_path_factory.mktemp("lambdag-report")
    project = method_project_copy(built_once, folder, "lambdag")
    return project, _export(project, folder, "M-1")


@pytest.fixture(scope="module")
def hostile(fused):
    project, folder, _ = fused
    return _export(project, folder, HOSTILE_CASE)


def _stored(project, case_number: str = "M-1"):
    """The run's typed result, its model, validation record and questioned text, as stored."""
    with ProjectStore.open(project) as store:
        case = store.cases.find(case_number)
        run = store.runs.list_for_case(case.id)[-1]
        result = store.runs.verification(run.id)
        model = store.models.load(run.model_id)
        stored_model = store.models.get(run.model_id)
        validation = store.validations.for_model(run.model_id)
        record = store.validations.record(validation.id)
        text = store.documents.text(run.questioned_document_id)
    return result, model, stored_model, record, text


# --- the case report --------------------------------------------------------------------------


@pytest.mark.slow
@pytest.mark.parametrize("which", ["fused", "lambdag"])
def test_the_summary_states_the_stated_ratio_with_each_methods_and_their_agreement(which, request):
    report = request.getfixturevalue(which)[-1]
    result, *_ = _stored(report.project)
    methods = result.methods
    assert (
        methods is not None and methods.stated == {"fused": "fusion", "lambdag": "lambdag"}[which]
    )
    summary = next(p for p in report.page_texts if "2. Summary" in p)
    # the conclusion is the stated method's ratio; the quick validation of six authors is too
    # small for casework, so it is stated for investigation only, and the summary says why
    assert result.conclusion.log10_lr == pytest.approx(methods.by_method[methods.stated], abs=1e-6)
    assert result.conclusion.kind is ConclusionKind.INVESTIGATIVE
    assert "validation_too_small" in {f.rule.value for f in result.conclusion.findings}
    assert has(summary, "No evaluative conclusion")
    assert has(summary, format_lr(result.conclusion.log10_lr))
    assert has(summary, "Each method's likelihood ratio.")
    for value in methods.by_method.values():
        assert value is not None
        assert has(summary, numbers.decimal(value))
        assert has(summary, format_lr(value))
        assert has(summary, lr_direction(value))
    assert has(summary, "TAVeer's classification (secondary to the conclusion above).")
    assert methods.at_bound  # the quick validation of six authors bounds the ratios
    # one under each bounded ratio in the table, and the same words in the headline's "(at its
    # validation's bound, the ELUB)" about the stated ratio (one vocabulary for the bound)
    assert summary.count(AT_BOUND) == len(methods.at_bound) + 1
    assert has(summary, "(at its validation's bound, the ELUB)")
    _, model, *_ = _stored(report.project)
    agreement = agreement_sentence(methods, model_fusion_weights(model))
    assert agreement is not None and has(summary, agreement)


def test_the_method_section_describes_lambdag_and_the_fusion_with_the_models_numbers(fused):
    project, _, report = fused
    _, model, stored_model, record, _ = _stored(project)
    part = LambdaGPart.of(model, "test")
    fusion = fusion_of(model, "test")
    text = report.text
    method = text[text.index("5. Method") : text.index("6. Result")]
    assert method.index("TAVeer") < method.index("LambdaG") < method.index("The fusion (")
    assert has(text, normalised(LAMBDAG_METHOD))
    assert has(
        text, normalised(LAMBDAG_VARIANT).replace("A variant, not the published method.", "")
    )
    assert has(text, "A variant, not the published method.")
    # traceable: the model, the population and the reference by their full SHA-256
    assert has(text, stored_model.sha256)
    assert part.population_sha256 == record["population"]["sha256"]
    assert part.population_sha256 in text and part.reference["sha256"] in text
    folds = ", ".join(str(f) for f in record["lambdag"]["fold_orders"])
    assert has(text, f"{part.order}, chosen by validation") and has(text, f"chose {folds})")
    assert has(text, f"{part.samples} random samples") and has(text, f"Seed {part.seed} (")
    assert has(text, f"a = {numbers.decimal(part.calibration.intercept, 4)}")
    assert has(text, f"b = {numbers.decimal(part.calibration.slope, 5)}")
    weights = dict(zip(fusion.methods, fusion.weights, strict=True))
    assert has(text, fusion_sentence(weights, "fusion") or "")
    assert has(text, "calibrated ratios of TAVeer and LambdaG")
    assert has(text, f"Intercept a {numbers.decimal(fusion.intercept, 4)}")


def test_the_result_section_traces_each_ratio_from_its_score(fused):
    project, _, report = fused
    result, model, *_ = _stored(project)
    methods = result.methods
    part = LambdaGPart.of(model, "test")
    page = next(p for p in report.page_texts if "6. Result" in p)
    unbounded = (
        part.calibration.intercept + part.calibration.slope * methods.lambdag_raw
    ) / 2.302585092994046
    assert has(page, f"λG {numbers.decimal(methods.lambdag_raw)} at order {methods.lambdag_order}")
    assert has(page, f"log10 LR {numbers.decimal(unbounded)}")
    for value in methods.by_method.values():
        assert has(page, f"LR {format_lr(value)}")


def test_lambdags_evidence_is_shown_with_its_meaning_legend_and_agreeing_sentences(fused):
    project, _, report = fused
    result, _, _, _, text = _stored(project)
    evidence = result.methods.evidence
    leanings = sentence_leanings(
        text, result.interpretation, result.ensemble, default_lexicon(), evidence
    )
    body = report.text
    section = body[body.index("LambdaG's evidence in the questioned text") :]
    for sentence in (SHARE_MEANING, AGREEMENT_MEANING, *legend_lines(mark_levels(evidence))):
        assert has(section, normalised(sentence))
    assert has(section, f"λG = {share_text(evidence.total)}")
    towards_hp, towards_hd = strongest(leanings, SENTENCES_SHOWN)
    assert towards_hp and towards_hd
    for index in towards_hp + towards_hd:
        assert has(
            section, f"{sentence_label(index)} {share_text(evidence.sentences[index].share)}"
        )
    for direction, towards in ((1, "Hp"), (-1, "Hd")):
        agreeing = [sentence_label(i) for i, x in enumerate(leanings) if x.direction == direction]
        count = numbers.count(len(agreeing), "sentence")
        listed = f"Both methods point towards {towards} in {count}"
        assert has(section, listed + (": " + ", ".join(agreeing) if agreeing else ""))


def test_the_highlighting_is_painted_in_both_colours_on_the_evidence_page(fused, qapp):
    project, _, report = fused
    page = next(i for i, p in enumerate(report.page_texts) if "predicted best (towards Hp)" in p)
    with ProjectStore.open(project) as store:
        _, content = prepare_report(store, "M-1")
    image = RenderedReport.layout(content).page_image(page, 1.0)
    seen = {
        image.pixelColor(x, y).name()
        for x in range(0, image.width(), 1)
        for y in range(0, image.height(), 2)
    }
    assert QColor(TOWARDS_HP_FILL).name() in seen and QColor(TOWARDS_HD_FILL).name() in seen


def test_a_taveer_models_report_has_no_method_part(demo_report):
    assert "LambdaG" not in demo_report.text
    assert "Each method's likelihood ratio" not in demo_report.text


def test_the_fused_report_shows_no_raw_numbers(fused):
    from number_scan import unformatted

    text = poppler("pdftotext", "-layout", str(fused[-1].pdf), "-")
    lines = [" ".join(line.split()) for line in text.splitlines()]
    found = [f for f in unformatted(lines) if not f.startswith("raw time")]
    assert found == [], "\n".join(found)


# --- a hostile questioned document ------------------------------------------------------------


def test_a_hostile_questioned_document_is_shown_literally_in_lambdags_evidence(hostile):
    result, *_ = _stored(hostile.project, HOSTILE_CASE)
    assert result.methods is not None and result.methods.evidence is not None
    text = hostile.text
    section = text[text.index("LambdaG's evidence in the questioned text") :]
    assert "\u202e" not in text and "[U+202E]" in text
    assert has(text, "<script>q[U+202E].txt")
    assert "predicted best (towards Hp)" in section or "predicted best (towards Hd)" in section
    # no conclusion for this case (its length is outside the validated conditions): no
    # method's likelihood ratio is reported, in the summary or in the result
    assert result.conclusion.kind is ConclusionKind.NONE
    assert text.count("With no conclusion, no method's likelihood ratio is reported") == 2
    assert "From score to likelihood ratio" not in text
    for number, page in enumerate(hostile.page_texts, start=1):
        assert has(page, f"Page {number} of {len(hostile.page_texts)}")


@pytest.mark.slow
def test_a_hostile_reports_pages_stay_inside_their_margins(fused, hostile, qapp):
    project = fused[0]
    with ProjectStore.open(project) as store:
        _, content = prepare_report(store, HOSTILE_CASE)
    rendered = RenderedReport.layout(content)
    bottom = PAGE_HEIGHT - MARGIN_BOTTOM
    for page in rendered.pages:
        for placed in page:
            assert placed.y >= MARGIN_TOP - 0.01 and placed.y + placed.height <= bottom + 0.01
    first = next(i for i, p in enumerate(hostile.page_texts) if "LambdaG's evidence" in p)
    for index in range(first, rendered.page_count):
        image = rendered.page_image(index, 1.0)
        left, right = int(MARGIN_LEFT - 3), int(PAGE_WIDTH - MARGIN_RIGHT + 3)
        for x in list(range(0, left, 2)) + list(range(right, image.width(), 2)):
            for y in range(0, image.height(), 3):
                assert image.pixelColor(x, y) == QColor("white"), (index + 1, x, y)


def test_highlighted_escapes_markup_and_bounds_a_long_sentence():
    prepared = prepare_text("<b>x</b> " + "word " * 400 + "end.")
    words = [(i, i + 4) for i in range(9, 9 + 400 * 5, 5)]
    tokens = (
        TokenEvidence(0, 8, TokenKind.MASKED, 0.5),
        *(TokenEvidence(a, b, TokenKind.KEPT, 0.01) for a, b in words[:-1]),
        TokenEvidence(*words[-1], TokenKind.KEPT, 3.0),
        TokenEvidence(len(prepared), len(prepared), TokenKind.END, -0.2),
    )
    sentence = SentenceEvidence(0, len(prepared), tokens)
    levels = mark_levels(type("E", (), {"sentences": (sentence,)})())
    assert levels.low >= MARK_MIN_SHARE
    html = highlighted(prepared, sentence, levels)
    assert "characters before]" in html  # the window is around the strongest token, at the end
    assert html.count("word") <= SENTENCE_WINDOW // 5 + 1
    short = SentenceEvidence(0, 40, tokens[:7])
    shown = highlighted(prepared, short, levels)
    assert "&lt;b&gt;x&lt;/b&gt;" in shown and "<b>x</b>" not in shown


def _method_row(pdf, method: str, figures: dict) -> bool:
    """Whether the PDF's layout text has a line that starts with the method's name (or its first
    word, where the name wraps in its column) and holds its accuracy, AUC, Cllr, Cllr_min and
    EER, in the comparison table's order."""
    lines = [" ".join(line.split()) for line in poppler("pdftotext", "-layout", str(pdf), "-")
             .splitlines()]  # fmt: skip
    values = " ".join(
        figure_value(key, figures[key]) for key in ("accuracy", "auc", "cllr", "cllr_min", "eer")
    )
    # a long name may wrap in its column: the row starts with it; the fusion's row is named by
    # what it combines (these reports are of the default fusion, TAVeer + LambdaG)
    name = "TAVeer + LambdaG" if method == "fusion" else method_name(method)
    return any(
        values in line and (line.startswith(name) or line.startswith(name.split()[0] + " "))
        for line in lines
    )


def test_the_result_section_names_the_fusion_only_for_a_fused_model(fused, lambdag):
    """ "The calibrations and the fusion are the model's" stood under a LambdaG (and a COAV)
    model's ratios too."""
    for report, fuses in ((fused[2], True), (lambdag[1], False)):
        page = next(p for p in report.page_texts if "6. Result" in p)
        method = SECTION_TITLES.index("Method") + 1
        assert (
            has(page, f"The calibrations and the fusion are the model's (section {method}).")
            is fuses
        )
        assert fuses or has(page, f"The calibrations are the model's (section {method}).")


# --- the validation report ---------------------------------------------------------------------


@pytest.mark.parametrize("which", ["fused", "lambdag"])
def test_the_validation_report_names_the_method_and_sets_every_methods_figures_side_by_side(
    which, request, tmp_path
):
    project = request.getfixturevalue(which)[0]
    record = _stored(project)[3]
    pdf = tmp_path / "validation.pdf"
    result = run("--project", project, "validation", "report", "1", "-o", pdf, "--json")
    assert result.returncode == 0, result.stderr
    text = normalised(poppler("pdftotext", str(pdf), "-"))
    assert has(text, normalised(validated_method(R(record))))
    assert "Method stated" in text and "Each method's figures on the same trials" in text
    for method, figures in record["methods"].items():
        assert _method_row(pdf, method, figures)
    folds = "; ".join(
        f"fold {i + 1}: {order}" for i, order in enumerate(record["lambdag"]["fold_orders"])
    )
    assert has(text, f"({folds})")
    assert "LambdaG's order." in text and "Methods." in text
    # the score chart draws the trials' score, the stated ratio's LR/(1+LR), and says so as the
    # desktop's chart does (it was captioned as TAVeer's ensemble scores, 0.5 its threshold)
    words = score_plot_text(R(record))
    assert has(text, words.caption) and has(text, words.x_axis)
    assert has(text, f"{record_method_name(R(record))}'s cross-validated likelihood ratio")
    assert "ensemble score" not in text and "threshold 0.5" not in text
    assert json.loads(result.stdout)["record_sha256"]


@pytest.mark.slow
def test_validate_with_a_fused_method_writes_its_report(tmp_path):
    """``taveer validate --method fusion --report`` was refused before; now it writes the
    report of the record it writes, with every method's figures."""
    from tests.method_fixtures import POPULATION

    model, record, pdf = tmp_path / "m.json", tmp_path / "r.json", tmp_path / "v.pdf"
    done = run(
        "validate", "--population", POPULATION, "-o", model, "--record", record,
        "--report", pdf, "--json", "--method", "fusion", "--folds", "3",
        "--questioned-chars", "3000", "--known-chars", "9000",
        "--lambdag-order", "3", "--lambdag-samples", "3",
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    written = json.loads(record.read_text())
    text = normalised(poppler("pdftotext", str(pdf), "-"))
    assert "Each method's figures on the same trials" in text
    for method in ("fusion", "taveer", "lambdag"):
        assert _method_row(pdf, method, written["methods"][method])


def test_a_disagreement_is_stated_as_a_warning_and_an_investigative_ratio_is_marked(fused):
    """The stated method's table and the agreement sentence for values this demo case does not
    give: TAVeer and LambdaG pointing different ways, under an investigative conclusion."""
    from dataclasses import replace

    from taveer_desktop.report.blocks import KeepTogether, Paragraph
    from taveer_desktop.report.content_methods import method_results, stated_methods
    from taveer_desktop.report.inputs import gather_inputs

    with ProjectStore.open(fused[0]) as store:
        inputs = gather_inputs(store, "M-1")
    result = inputs.verification
    by_method = {"taveer": 0.8, "lambdag": -0.6, "fusion": 0.3}
    conclusion = replace(result.conclusion, kind=ConclusionKind.INVESTIGATIVE, log10_lr=0.3)
    changed = replace(
        inputs,
        read=replace(
            result,
            conclusion=conclusion,
            methods=replace(result.methods, by_method=by_method, at_bound=()),
        ),
    )
    blocks = stated_methods(changed)
    paragraphs = [b for b in blocks if isinstance(b, Paragraph)]
    disagreement = agreement_sentence(
        changed.verification.methods, model_fusion_weights(inputs.model)
    )
    assert disagreement is not None and disagreement.startswith("The two methods disagree")
    assert [(p.html, p.style) for p in paragraphs] == [
        (disagreement.replace("'", "&#x27;"), "warning"),
        ("Like the conclusion, these ratios are for investigation only.", "warning"),
    ]
    table = next(b for b in blocks if isinstance(b, KeepTogether)).blocks[1]
    assert [row.cells[1] for row in table.rows] == [format_lr(v) for v in (0.3, 0.8, -0.6)]
    assert "for investigation only" in method_results(changed)[-1].html


# --- the report's space follows the weight of evidence (issue 23) -------------------------------


def test_a_lambdag_models_report_gives_taveers_features_one_line(lambdag, fused):
    """Under a LambdaG model TAVeer's ratio is not part of the stated one: its features get one
    line each in sections 6 and 7, not pages; the stability quoted first is LambdaG's ratio's
    (resampled with the same sentences), TAVeer's classification's below it, each named."""
    report = lambdag[-1]
    text = report.text
    assert has(text, "TAVeer's results per feature kind are not set out")
    assert has(text, "TAVeer's features are not set out")
    assert has(text, "the stated ratio is LambdaG's alone")
    assert not re.search(r"F\d+ — ", text)  # no category block
    assert "Top features of L_Y" not in text
    assert has(text, LAMBDAG_EVIDENCE_HEAD)
    assert has(text, "Stability of the stated ratio (LambdaG's ratio).")
    assert has(text, "resamples give a ratio on the same side of 1 as the stated one")
    assert has(text, "Stability of TAVeer's classification (the same resamples)")
    assert len(report.page_texts) < len(fused[-1].page_texts)


def test_a_fused_model_giving_taveer_no_weight_gets_one_line_and_no_agreement(fused):
    from dataclasses import replace

    from taveer_desktop.report.blocks import Paragraph, Table
    from taveer_desktop.report.content import build_report
    from taveer_desktop.report.inputs import gather_inputs

    with ProjectStore.open(fused[0]) as store:
        inputs = gather_inputs(store, "M-1")
    fusion = dict(inputs.model.extra["fusion"])
    fusion["weights"] = [0.0 if m == "taveer" else 1.181 for m in fusion["methods"]]
    model = replace(inputs.model, extra={**inputs.model.extra, "fusion": fusion})
    content = build_report(replace(inputs, model=model), attached=False)
    from taveer_desktop.report.blocks import KeepTogether

    def texts(blocks):
        for b in blocks:
            if isinstance(b, KeepTogether):
                yield from texts(b.blocks)
            elif isinstance(b, Paragraph):
                yield b.html
            elif isinstance(b, Table):
                yield " ".join(" ".join(r.cells) for r in b.rows)

    html = " ".join(texts(content.blocks))
    assert "weights TAVeer 0.000, LambdaG 1.181" in html
    assert "alone (no weight in the stated ratio)" in html
    assert "TAVeer's features</b> are not set out" in html
    assert "The two methods agree" not in html
    assert "not two methods agreeing" in html
    full = build_report(inputs, attached=False)  # the real weights: TAVeer's pages are there
    assert len(content.blocks) < len(full.blocks) - 10


def test_the_headline_says_when_a_taveer_models_ratio_sits_at_its_bound(demo_report):
    """ELUB for a TAVeer-only run too: the report's headline says the ratio is the bound."""
    from taveer_desktop.presentation.conclusion_text import AT_LOWER_BOUND, AT_UPPER_BOUND, lr_bound

    with ProjectStore.open(demo_report.project) as store:
        case = store.cases.find("DEMO-001")
        run = store.runs.list_for_case(case.id)[-1]
        result = store.runs.verification(run.id)
        model = store.models.load(run.model_id)
    bound = lr_bound(result, model)
    calibration = model.calibration
    at = result.log10_lr is not None and any(
        b is not None and abs(result.log10_lr - b) < 1e-6
        for b in (calibration.min_log10_lr, calibration.max_log10_lr)
    )
    assert (bound is not None) == at
    sentence = {"upper": AT_UPPER_BOUND, "lower": AT_LOWER_BOUND}.get(bound or "")
    if sentence:
        assert has(demo_report.text, sentence)
    else:
        assert "(ELUB): no larger ratio" not in demo_report.text
