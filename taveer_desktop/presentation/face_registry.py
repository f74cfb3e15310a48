"""The one place presentation, the report, the desktop and the command line ask what a method
is: its face (``method_face.MethodFace``, the words it brings) and what it can do, from the
registry's capabilities and origin (``core/ground/registry.py``).

Generic code asks ``face(method)`` for a method's words, and ``fuses``, ``quotes_classification``,
``gives_text_evidence``, ``scores_by_classification`` and ``is_seed`` for what it does; it never
compares a method's id. An id the registry does not know (a record or model from a later
version) has the plain face and no capability.
"""

from __future__ import annotations

from taveer_desktop.core.ground.registry import Capabilities, MethodId, Origin, method_info
from taveer_desktop.presentation import fusion_face, lambdag_face, taveer_face
from taveer_desktop.presentation.method_face import MethodFace, plain_face

_FACES: dict[str, MethodFace] = {
    MethodId.TAVEER: taveer_face.FACE,
    MethodId.LAMBDAG: lambdag_face.FACE,
    MethodId.FUSION: fusion_face.FACE,
}


def face(method: str) -> MethodFace:
    """The words ``method`` brings: its own face, or the plain one built from the registry."""
    return _FACES.get(str(method)) or plain_face(method)


def _capabilities(method: str | None) -> Capabilities | None:
    if method is None:
        return None
    try:
        return method_info(method).capabilities
    except KeyError:
        return None


def fuses(method: str | None) -> bool:
    """Whether ``method`` combines other methods' ratios (named by its parts, costed by them,
    never one of its own inputs)."""
    caps = _capabilities(method)
    return caps is not None and caps.fuses


def gives_text_evidence(method: str | None) -> bool:
    """Whether ``method`` places its evidence on the questioned text (marked tokens and
    sentences); a category name or an unknown id does not."""
    caps = _capabilities(method)
    return caps is not None and caps.evidence_in_text


def scores_by_classification(method: str | None) -> bool:
    """Whether ``method``'s score is its own classification's (the ensemble's vote), so that
    a validation's score chart draws that score rather than its ratio as a share."""
    caps = _capabilities(method)
    return caps is not None and caps.classifies


def quotes_classification(stated: str) -> bool:
    """Whether a run stating ``stated``'s ratio quotes its classification's stability: the
    ratio is a function of the classification's score and is not resampled on its own. An
    unknown id's ratio counts as resampled."""
    caps = _capabilities(stated)
    return caps is not None and not caps.ratio_resampled


def is_seed(method: str | None) -> bool:
    """Whether ``method`` is the method of the TAVeer paper: the one a validation states unless
    told otherwise, named without "with …" beside a record or a model."""
    try:
        return method is not None and method_info(method).origin is Origin.SEED
    except KeyError:
        return False
