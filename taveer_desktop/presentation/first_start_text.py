"""The first-start guide's words (plain HTML, no Qt): what a new examiner does first, in the
order of a case, pointing to the menus that do it. Shown beside the case list until the
examiner dismisses it (``ui/first_start_guide.py``); Help ▸ The TAVeer Method says the rest.
"""

from __future__ import annotations

GUIDE_TITLE = "Getting started"
GUIDE_STEPS = (
    "Select the demo case <b>DEMO-001</b> and press <b>Verify</b>: the conclusion comes first, "
    "its reasons under it.",
    "For a case of your own: <b>Case ▸ New Case</b>, then add the <b>known</b> and the "
    "<b>questioned</b> documents.",
    "<b>Case ▸ Validate on a Population</b>: choose a population relevant to the case, the "
    "method (or several to compare or fuse) and the acceptance criteria before the run.",
    "<b>Verify</b>, then read the reasons and the validation the conclusion rests on.",
    "<b>Examiner Declaration</b> and a second examiner's <b>Technical Review</b>; until both "
    "are done, <b>Export Report</b> writes a DRAFT.",
    "<b>Help ▸ The TAVeer Method</b> (F1) explains every step and every reason.",
)
GUIDE_DISMISS = "Hide this &guide"
GUIDE_DISMISS_TIP = "Hide the guide for good (Help ▸ The TAVeer Method has all of it)"


def guide_html() -> str:
    """The guide as one HTML block: a heading and the numbered steps."""
    steps = "".join(f"<li>{step}</li>" for step in GUIDE_STEPS)
    return f"<b>{GUIDE_TITLE}</b><ol style='margin-left: -20px'>{steps}</ol>"
