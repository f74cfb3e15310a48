"""Help ▸ The TAVeer Method: today's workflow in an examiner's words (HTML, no Qt).

What the examiner does and what the program computes, in the order of a case: the question and
its two propositions with the relevant population; the likelihood ratio and the verbal scale;
the methods (TAVeer, LambdaG, the ten comparison systems of the registry, any fusion of them)
and how the validation wizard compares and fuses them; validation on a relevant population over
a range of lengths; the gate and each of its rules, in the plain words a result gives
(``presentation/refusal_text.py``) beside when it applies; the examiner's declaration, the
technical review, the draft, final and signed reports and how a report is checked later
(``taveer check --report``); what a result does not mean; what the program keeps. The desktop's
method dialog shows it with the glossary under it (``ui/method_dialog.py``); a test reads it for
every rule of the gate and every method of the registry.
"""

from __future__ import annotations

from taveer_desktop.core.calibration.outcome import GateRule
from taveer_desktop.core.ground.registry import REGISTRY, Origin
from taveer_desktop.presentation.refusal_text import PLAIN_REASONS

# the gate's rules as the examiner meets them: (rule, the kind that remains at most, words)
GATE_RULES = (
    (
        "usable_text",
        "no conclusion",
        "a questioned or known text has no usable language (nothing the methods can count).",
    ),
    (
        "enough_text",
        "no conclusion",
        "a text is too short for any method (about 500 characters or 5 sentences at least).",
    ),
    (
        "same_text",
        "no conclusion",
        "the questioned text is (nearly) one of the known texts: there is nothing to weigh.",
    ),
    (
        "no_validation",
        "for investigation only",
        "no validation of the stated method on a population the examiner declared relevant to "
        "this case: without it the ratio is not an evaluation.",
    ),
    (
        "validation_not_met",
        "for investigation only",
        "the validation did not meet its acceptance criteria, judged on the pessimistic end of "
        "each interval.",
    ),
    (
        "validation_too_small",
        "for investigation only",
        "the validation had fewer than 20 authors or fewer than 100 trials of a class: too small "
        "for casework, whatever its figures.",
    ),
    (
        "validated_conditions",
        "for investigation only",
        "the case lies outside the validated conditions, e.g. a text length outside the range "
        "the validation covered, or a score the validation never saw.",
    ),
    (
        "population_fit",
        "for investigation only",
        "the case's questioned or known texts do not look like the population's documents (the "
        "population-fit check; stated false-flag rate 5 % per case).",
    ),
    (
        "repeats_disagree",
        "a ratio of 1 (no direction)",
        "fitted on each repeat of its validation alone, the method gives the case ratios that do "
        "not all point the same way: which way the ratio points depends on the validation's "
        "random draw, so it is stated as 1, whatever kind of conclusion the other rules allow.",
    ),
    (
        "conditions_unknown",
        "for investigation only",
        "the model does not say what it was validated for.",
    ),
    (
        "not_calibrated",
        "for investigation only",
        "the model gives no calibrated likelihood ratio (a model made before calibration).",
    ),
    (
        "lexicon",
        "for investigation only",
        "the model was made with another lexicon than the one this program reads the texts with.",
    ),
)


def _said(rule: str) -> str:
    """What a result says for ``rule`` (the population fit words its own findings)."""
    plain = PLAIN_REASONS.get(GateRule(rule))
    return plain[:1].upper() + plain[1:] + "." if plain else "As the population-fit check says."


def _rules_html() -> str:
    rows = "".join(
        f"<tr><td>{_said(rule)} <small>(<code>{rule}</code>)</small></td><td>{kind}</td>"
        f"<td>{words}</td></tr>"
        for rule, kind, words in GATE_RULES
    )
    return (
        "<table cellspacing='0' cellpadding='3' border='1'>"
        "<tr><th>What the result says</th><th>At most</th><th>When</th></tr>" + rows + "</table>"
    )


def _comparison_systems_html() -> str:
    """The comparison systems of the registry, each with its family and publication."""
    items = "".join(
        f"<li><b>{info.name}</b> — {info.family.value}; {info.reference}"
        f"{'' if info.origin is Origin.BASELINE else f' ({info.origin.value})'}.</li>"
        for info in REGISTRY.values()
        if info.comparison
    )
    return f"<ul>{items}</ul>"


METHOD_HTML = (
    """
<h2>The TAVeer method: from the question to a conclusion</h2>

<h3>1. The question and the two propositions</h3>
<p>You have documents known to be written by one person (<b>known</b>, K1, K2, …) and a
<b>questioned</b> document (Q). The program does not say who wrote Q. It weighs the findings on
the texts under two propositions:</p>
<ul>
<li><b>Hp</b> — the author of the known documents wrote the questioned document;</li>
<li><b>Hd</b> — someone else wrote it, a person from the <b>relevant population</b>: the
authors, genre, period and way of writing you declare comparable to this case (e.g. "office
staff of a mid-sized company writing business e-mails in English, 2015–2020").</li>
</ul>
<p>Hd is only meaningful with its population named: the population is part of every conclusion
and of every report.</p>

<h3>2. The likelihood ratio and the verbal scale</h3>
<p>The answer is a <b>likelihood ratio</b> (LR): how many times more probable the findings are if
Hp is true than if Hd is true. LR 20 means twenty times more probable under Hp; LR 1/20 (0.05)
twenty times more probable under Hd; LR 1 favours neither. It is <i>not</i> the probability that
either proposition is true: that depends on the other evidence in the case, which is for the
court. The number comes first; the words of your lab's verbal scale (File ▸ Verbal Scale, e.g.
"moderate support for Hp") stand beside it. Weak support is still support for the stated
proposition, never for the other one.</p>
<p>A ratio is <b>bounded by its validation</b> (the ELUB, empirical lower and upper bound): a
validation of a few hundred trials cannot support a ratio of a million. When a ratio sits at its
bound, the result says so: the texts may point more strongly, but no larger ratio is
supported.</p>

<h3>3. The methods</h3>
<ul>
<li><b>TAVeer</b> (Halvani, Graner and Regev, <i>A Step Towards Interpretable Authorship
Verification</i>) compares how often each author uses topic-independent features in eleven
kinds (F1–F11: punctuation, function words and phrases, word and sentence shapes, masked word
n-grams). Each kind gives a similarity between 0 and 1 (0.5 at its learned threshold); the
median over the model's <b>ensemble</b> of kinds is TAVeer's <b>classification</b> (same-author
or different-author side), a secondary figure beside the ratio. Every similarity is traced to the
single features that pushed it.</li>
<li><b>LambdaG</b> (Nini, Halvani, Graner, Gherardi and Ishihara) asks how much better a grammar
model of the known author's texts predicts the questioned text than models of other authors of
the population do; the texts are first reduced to their topic-free skeleton (this program's
variant of the published masking). Its evidence can be seen token by token in the questioned
text.</li>
<li><b>The comparison systems</b>: the ten systems the TAVeer paper compares itself with (and
any other published method added since: its origin is listed below), each implemented from its
original paper; each raw score is calibrated to a likelihood ratio on the
validation trials as TAVeer's is. They compare the texts as wholes, so they show no evidence
in the text.</li>
<li><b>The fusion</b> of two or more methods combines their calibrated ratios with weights
learned on the validation trials, and is named by what it fuses ("TAVeer + COAV"). The
weights are shown beside the fused ratio: a method with weight 0.000 adds nothing to it. A
fusion is not an average: its ratio can lie above or below every ratio it combines, and the
report says why.</li>
</ul>
<p>The comparison systems:</p>
"""
    + _comparison_systems_html()
    + """
<p>In the validation wizard's method page, <b>State</b> picks the method whose ratio the model
will state; <b>Compare</b> validates other methods beside it on the same trials (the record
then holds each one's figures side by side, and a rule registered before the run may pick the
stated method by its pessimistic Cllr); <b>Fused</b> picks the methods a fusion combines. Each
row shows the measured cost of one validation trial.</p>
<p>The model you choose for a case states one method's ratio; the other methods' own ratios are
shown beside it with their part in it. Where that method is not TAVeer, TAVeer's own
classification is shown too, as a second method's view, never as the conclusion. The stability
figure resamples the sentences and recomputes the stated ratio and TAVeer's classification.</p>

<h3>4. Validation on a relevant population, over a range</h3>
<p>A likelihood ratio is an evaluation only when the method that states it was
<b>validated</b> under the conditions of the case. <i>Case ▸ Validate…</i> (the validation
wizard) runs it:</p>
<ol>
<li>choose a <b>population</b> you declare relevant to the case (folders of texts by many
authors, with who they are, genre, period and how they were selected);</li>
<li>choose the <b>method</b> (any of the methods above, or a fusion of some of them) and the
<b>range</b> of questioned
and known lengths the validation must cover (around the case's own lengths);</li>
<li>set the <b>acceptance criteria</b> (largest Cllr, largest rates of misleading evidence)
<i>before</i> the trials are built; they are judged on the pessimistic end of each interval, so
a small validation cannot pass by luck;</li>
<li>name the model it produces. The program builds same-author and different-author trials from
the population, runs repeated cross-validation, learns a length-aware calibration, and reports
Cllr, rates of misleading evidence, Tippett plots and the figures per length band.</li>
</ol>
<p>A validation of fewer than 20 authors or fewer than 100 trials of a class is too small for
casework. The <b>population-fit check</b> asks whether the case's questioned and known texts
look like the population's documents (a conformal p-value, with a stated false-flag rate of 5 %
per case); a case that does not fit gets no evaluative conclusion from that population. Every
attempt is kept and listed with the case; a failed attempt never replaces a met one as the
case's model. An existing validation can be declared relevant to another case (with a reason,
audited): <code>taveer case use-validation CASE ID --reason …</code>.</p>

<h3>5. The gate: which kind of conclusion a result may carry</h3>
<p>Every result is judged by the fitness-for-purpose gate and labelled:
<b>evaluative conclusion</b> (the ratio may be reported as the evaluation of the findings),
<b>for investigation only</b> (the ratio is shown, marked as not validated for this case, and
must not be reported as evidence) or <b>no conclusion</b> (the texts do not allow one). Each broken
rule lowers the label at most to the kind shown and gives its reason in words:</p>
"""
    + _rules_html()
    + """

<h3>6. Declaration, technical review and the report</h3>
<p><i>Case ▸ Export Report…</i> writes the PDF report of a stored run: the question, the
propositions and population, each method's ratio, the validation and its attempts, the
evidence, the audit trail and a receipt. Until the case has an <b>examiner's declaration</b>
(<i>Case ▸ Examiner Declaration…</i>: name, role and the lab's statement of truth) and an
approved <b>technical review</b> by a second examiner (<i>Case ▸ Technical Review…</i>) of that
declaration as it stands, every report is a <b>DRAFT</b>, marked on every page. With both, the
report can be issued as <b>final</b>, and a final report can be <b>signed</b> (PAdES, with the
lab's certificate and, where the lab has one, a time-stamping authority). Any change to the case
after the declaration makes it out of date. On the command line: <code>taveer case edit CASE
--examiner … --agency …</code>, <code>taveer case declare</code>, <code>taveer case
review</code>, <code>taveer report CASE -o FILE.pdf --final [--sign CERT.p12]</code>. Later,
<code>taveer --project P check --report FILE.pdf</code> says whether a PDF is a report this
project issued, unchanged (with <code>--trust CA.pem</code>: whether its signer chains to the
lab's CA).</p>

<h3>7. What a result does and does not mean</h3>
<p>A result is evidence, not proof, and only as good as the fit between the case and the
validation's population, genre, length and era. Check the reasons under the conclusion, the
validation figures of the model (Model ▸ Models, the model picker) and the population fit. Short
documents give unreliable results and are flagged. Excluded evidence stays stored with its
reason and keeps its exhibit label.</p>

<h3>8. What the program keeps</h3>
<p>Every document with the SHA-256 of its bytes; every validation attempt, model and run with the
documents and their hashes; every change in a hash-chained audit log that makes tampering
evident. A receipt written outside the project (File ▸ Write Receipt, and beside every report)
shows later that the project was not rolled back or rewritten.</p>
"""
)
