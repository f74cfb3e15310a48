"""The text of an HTML body as a recipient's mail program shows it, and the text it hides.

``html_to_text`` turns HTML into readable text with the stdlib ``html.parser``: scripts,
styles, the head and templates are dropped, block elements become line breaks, and runs of
white space collapse. Text inside an element hidden from the reader is not taken; it is
counted in a ``HiddenText`` (characters, elements, how hidden, its first characters). Hidden
means: the ``hidden`` attribute; an inline style or a class of the message's own ``<style>``
rules with ``display:none``, ``visibility:hidden``/``collapse``, ``font-size:0``, ``opacity:0``,
``mso-hide:all``, ``max-height:0`` or ``height:0`` with ``overflow:hidden``, or a text colour
equal to the element's own background colour. Colours inherited from elsewhere, text pushed off
screen and other stylesheet selectors are not recognised (docs/reliability.md).
"""

from __future__ import annotations

import re
from collections import Counter
from html.parser import HTMLParser

from taveer_desktop.core.intake.reading_notes import HiddenText, sample_of

_BLOCK_TAGS = {
    "p", "div", "li", "ul", "ol", "tr", "table", "h1", "h2", "h3", "h4", "h5", "h6",
    "blockquote", "pre", "section", "article", "header", "footer", "address", "hr",
}  # fmt: skip
_SKIPPED_TAGS = {"script", "style", "head", "title", "template", "noscript"}
_VOID_TAGS = {
    "area", "base", "br", "col", "embed", "hr", "img", "input", "link", "meta", "source",
    "track", "wbr",
}  # fmt: skip
_ENDS_PARAGRAPH = _BLOCK_TAGS - {"li", "tr"}
_SELF_CLOSING_SIBLINGS = {"p", "li", "td", "th", "tr", "option", "dt", "dd"}
_ZERO = r"0*(?:\.0+)?(?:px|pt|em|rem|ex|%)?\s*(?:!important\s*)?(?:;|$)"
_HIDING_RULES = (
    (re.compile(r"(?<![-\w])display\s*:\s*none\b"), "display:none"),
    (re.compile(r"(?<![-\w])visibility\s*:\s*(?:hidden|collapse)\b"), "visibility:hidden"),
    (re.compile(r"(?<![-\w])font-size\s*:\s*" + _ZERO), "font-size:0"),
    (re.compile(r"(?<![-\w])opacity\s*:\s*" + _ZERO), "opacity:0"),
    (re.compile(r"(?<![-\w])mso-hide\s*:\s*all\b"), "mso-hide:all"),
)
_ZERO_HEIGHT = re.compile(r"(?<![-\w])(?:max-)?height\s*:\s*" + _ZERO)
_OVERFLOW_HIDDEN = re.compile(r"(?<![-\w])overflow\s*:\s*hidden\b")
_COLOUR = re.compile(r"(?<![-\w])color\s*:\s*([^;!]+)")
_BACKGROUND = re.compile(r"(?<![-\w])background(?:-color)?\s*:\s*([^;!]+)")
_CLASS_NAME = re.compile(r"(?<![-\w])\.([-\w]+)\s*(?:,|$)")
MAX_CSS_CHARS = 256 * 1024  # of each <style> block: a message's own rules are far shorter


def hiding_reason(style: str) -> str | None:
    """How a CSS declaration list hides its element's text, or None if it does not."""
    style = style.lower()
    for pattern, reason in _HIDING_RULES:
        if pattern.search(style):
            return reason
    if _ZERO_HEIGHT.search(style) and _OVERFLOW_HIDDEN.search(style):
        return "height:0 with overflow:hidden"
    colour, background = _COLOUR.search(style), _BACKGROUND.search(style)
    if colour and background and _same(colour.group(1), background.group(1)):
        return "text colour = background colour"
    return None


def _same(colour: str, other: str) -> bool:
    return "".join(colour.split()) == "".join(other.split())


class _HtmlTextExtractor(HTMLParser):
    def __init__(self) -> None:
        super().__init__(convert_charrefs=True)
        self.parts: list[str] = []
        self.hidden_parts: list[str] = []
        self.hidden_how: dict[str, None] = {}
        self.hidden_places: set[int] = set()
        self.hidden_classes: dict[str, str] = {}
        self._skipping = 0
        self._in_style = False
        # (tag, how it or an element around it hides it, the number of that hiding element)
        self._stack: list[tuple[str, str | None, int]] = []
        self._open: Counter[str] = Counter()  # how many elements of each tag are open
        self._elements = 0

    def _reason(self, attrs: list[tuple[str, str | None]]) -> str | None:
        values = {name.lower(): value or "" for name, value in attrs}
        if "hidden" in values:
            return "hidden attribute"
        reason = hiding_reason(values.get("style", ""))
        for name in values.get("class", "").split():
            reason = reason or self.hidden_classes.get(name)
        return reason

    def handle_starttag(self, tag: str, attrs: list[tuple[str, str | None]]) -> None:
        if tag in _SKIPPED_TAGS:
            self._skipping += 1
            self._in_style = tag == "style"
            return
        if tag in _SELF_CLOSING_SIBLINGS and self._stack and self._stack[-1][0] == tag:
            self._pop()  # <p>one<p>two: the second paragraph ends the first
        elif tag in _ENDS_PARAGRAPH and self._stack and self._stack[-1][0] == "p":
            self._pop()  # a block element ends an open paragraph, as in a browser
        if tag not in _VOID_TAGS:
            self._elements += 1
            inherited = self._hidden()
            if inherited is None:
                self._stack.append((tag, self._reason(attrs), self._elements))
            else:
                self._stack.append((tag, *inherited))
            self._open[tag] += 1
        if self._hidden() is not None:
            return
        if tag == "br":
            self.parts.append("\n")
        elif tag in _BLOCK_TAGS:
            self.parts.append("\n\n")

    def handle_endtag(self, tag: str) -> None:
        if tag in _SKIPPED_TAGS:
            self._skipping = max(0, self._skipping - 1)
            self._in_style = False
            return
        if self._open[tag]:
            while self._pop() != tag:
                pass
        if tag in _BLOCK_TAGS and self._hidden() is None:
            self.parts.append("\n\n")

    def _pop(self) -> str:
        tag = self._stack.pop()[0]
        self._open[tag] -= 1
        return tag

    def _hidden(self) -> tuple[str, int] | None:
        if self._stack and self._stack[-1][1] is not None:
            return self._stack[-1][1], self._stack[-1][2]
        return None

    def handle_data(self, data: str) -> None:
        if self._skipping:
            if self._in_style:
                self._read_rules(data)
            return
        hidden = self._hidden()
        if hidden is None:
            self.parts.append(data)
            return
        shown = " ".join(data.split())
        if shown:
            self.hidden_parts.append(shown)
            self.hidden_how[hidden[0]] = None
            self.hidden_places.add(hidden[1])

    def _read_rules(self, css: str) -> None:
        """Classes that the message's own ``<style>`` rules hide (``.a, .b { display:none }``);
        read block by block with ``str`` methods, in one pass (no backtracking on hostile CSS)."""
        for block in css[:MAX_CSS_CHARS].split("}"):
            head, brace, declarations = block.rpartition("{")
            if not brace:
                continue
            reason = hiding_reason(declarations)
            if reason:  # the selectors: after an enclosing "@media … {" or a statement's ";"
                selectors = head.rpartition("{")[2].rpartition(";")[2]
                for name in _CLASS_NAME.findall(selectors):
                    self.hidden_classes[name] = f"class {name}: {reason}"

    def hidden_text(self) -> HiddenText | None:
        if not self.hidden_parts:
            return None
        joined = " ".join(self.hidden_parts)
        return HiddenText(
            sum(len(part) for part in self.hidden_parts),
            len(self.hidden_places),
            tuple(self.hidden_how),
            sample_of(joined),
        )


def html_to_text(markup: str) -> tuple[str, HiddenText | None]:
    """(readable text of an HTML fragment, the text hidden from the reader or None)."""
    extractor = _HtmlTextExtractor()
    extractor.feed(markup)
    extractor.close()
    return tidy_text("".join(extractor.parts)), extractor.hidden_text()


def tidy_text(text: str) -> str:
    """Collapse runs of spaces in each line and of blank lines, strip the ends."""
    lines = [re.sub(r"[ \t\u00a0]+", " ", line).strip() for line in text.splitlines()]
    return re.sub(r"\n{3,}", "\n\n", "\n".join(lines)).strip()
