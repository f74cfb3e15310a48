"""TAVeer Desktop: offline forensic authorship verification with the TAVeer method.

Importing the package keeps numpy's linear algebra to one thread per process unless the user
set otherwise: the engine runs its work in several processes, and the comparison systems solve
many small systems (Unmasking's SVMs, the Impostors Method's products), which BLAS threads make
up to ten times slower on a busy two-core machine (benchmarks/ngram_methods_cost.py,
benchmarks/unmasking_cost.py). It takes effect where numpy is loaded after the package, which
is the case for the ``taveer`` command, the desktop and every helper process they start.
"""

import os as _os

for _name in ("OPENBLAS_NUM_THREADS", "OMP_NUM_THREADS", "MKL_NUM_THREADS"):
    _os.environ.setdefault(_name, "1")

__version__ = "0.1.0"
PROGRAM_NAME = "TAVeer Desktop"
