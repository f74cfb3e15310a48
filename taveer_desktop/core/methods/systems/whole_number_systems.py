"""The primal linear SVM's Newton systems I + 2C X_Aᵀ X_A for samples that are whole numbers
(word counts of chunks, as in Unmasking), kept from one Newton step to the next.

Where every sample value and 2C are whole numbers and 2C · N · max|x|² stays below 2⁵², every
entry of such a system — and every partial sum on the way to it — is a whole number that
float64 holds exactly, whatever order the sums are added in. So the system can be summed from
each sample's non-zero feature pairs (a short chunk holds few of the words) and afterwards
updated by only the samples that entered or left a problem's active set, and it is still, bit
for bit, the dense sum over every active sample (``svm_newton.Primal``, which uses it).
"""

from __future__ import annotations

import numpy as np

SPARSE_PAIRS = 1_000_000  # at most this many feature pairs of one data set are summed one by one


def whole_numbers(x: np.ndarray, c: float) -> bool:
    """Whether the systems of samples ``x`` (G, N, d) at cost ``c`` are exact in float64."""
    largest = float(np.abs(x).max(initial=0.0))
    return (
        float(2.0 * c).is_integer()
        and 2.0 * c * largest * largest * x.shape[1] < 2.0**52
        and bool(np.all(x == np.rint(x)))
    )


class WholeNumberSystems:
    """Each problem's I + 2C X_Aᵀ X_A (``x`` (G, N, d) data sets, ``group`` the data set of
    each of the P problems), for the active sets it was last asked for."""

    def __init__(self, x: np.ndarray, c: float, group: np.ndarray) -> None:
        self.x, self.c, self.group = x, c, group
        self._systems: np.ndarray | None = None  # (P, d, d), for the active sets in _basis
        self._basis = np.zeros((len(group), x.shape[1]), dtype=bool)

    def of(self, active: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """The systems of problems ``rows`` for their ``active`` samples (len(rows), N): the
        first call sums them; later calls add and remove the samples whose activity changed."""
        if self._systems is None:
            systems = self._summed(active, rows)
            self._systems = np.empty((len(self.group), *systems.shape[1:]))
            self._systems[rows] = systems
            self._basis[rows] = active
            return systems
        sign = active.astype(np.int8) - self._basis[rows]
        changed = sign != 0
        counts = changed.sum(axis=1)
        width = int(counts.max(initial=0))
        if width:
            order = np.argsort(~changed, axis=1, kind="stable")[:, :width]
            used = np.arange(width)[None, :] < counts[:, None]
            picked = self.x[self.group[rows][:, None], order]  # (P, width, d)
            signs = np.where(used, np.take_along_axis(sign, order, axis=1), 0)
            change = (picked * signs[..., None]).transpose(0, 2, 1) @ picked
            self._systems[rows] += 2.0 * self.c * change
            self._basis[rows] = active
        return np.asarray(self._systems[rows])

    def _summed(self, active: np.ndarray, rows: np.ndarray) -> np.ndarray:
        """The systems summed afresh: from each active sample's products of its non-zero
        features where the samples are sparse, else densely."""
        d = self.x.shape[2]
        sets = self.group[rows]
        nonzero = self.x != 0.0
        pairs = (nonzero.sum(axis=2).astype(np.int64) ** 2).sum(axis=1)  # per data set
        if int(pairs[sets].max(initial=0)) > min(self.x.shape[1] * d * d // 8, SPARSE_PAIRS):
            masked = self.x[sets] * active[:, :, None]
            dense = 2.0 * self.c * (masked.transpose(0, 2, 1) @ masked)
            dense += np.eye(d)[None]
            return np.asarray(dense)
        flat = np.zeros(len(rows) * d * d)
        for index, (data, mask) in enumerate(zip(sets, active, strict=True)):
            sample, feature = np.nonzero(nonzero[data] & mask[:, None])
            value = self.x[data, sample, feature]
            # every pair (e, f) of non-zero entries of one sample (entries come sample by
            # sample): e is repeated once per entry of its sample, f runs over them
            first = np.searchsorted(sample, sample, side="left")
            length = np.searchsorted(sample, sample, side="right") - first
            left = np.repeat(np.arange(len(sample)), length)
            right = np.arange(len(left)) + np.repeat(first - (np.cumsum(length) - length), length)
            flat[index * d * d : (index + 1) * d * d] = np.bincount(
                feature[left] * d + feature[right],
                weights=value[left] * value[right],
                minlength=d * d,
            )
        systems = 2.0 * self.c * flat.reshape(len(rows), d, d)
        systems += np.eye(d)[None]
        return systems
