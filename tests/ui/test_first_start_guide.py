"""The first-start guide (issue 33, item 4): beside the case list on every start until the
examiner hides it, remembered in the settings; it names the first steps of a case and where
the rest is explained."""

from __future__ import annotations

from taveer_desktop.presentation.first_start_text import GUIDE_STEPS, guide_html
from taveer_desktop.ui import app_settings
from tests.ui.conftest import open_window


def test_the_guide_stays_until_hidden_and_hiding_it_is_remembered(qtbot, tmp_path):
    assert not app_settings.guide_dismissed()  # a fresh settings folder (TAVEER_HOME)
    window = open_window(qtbot, tmp_path / "p.taveer")
    assert window.guide.isVisible()
    assert window.guide.label.text() == guide_html()
    qtbot.wait(200)
    assert window.guide.isVisible()  # no timer takes it away
    window.guide.hide_button.click()
    assert not window.guide.isVisible() and app_settings.guide_dismissed()
    window.close()
    again = open_window(qtbot, tmp_path / "p.taveer")
    assert not again.guide.isVisible()
    again.close()


def test_the_guide_names_the_first_steps_and_the_help():
    text = " ".join(GUIDE_STEPS)
    for words in ("DEMO-001", "Verify", "Validate on a Population", "Declaration", "Review"):
        assert words in text, words
    assert "Help ▸ The TAVeer Method" in text
