# Copyright 2026 The LatFormer for Go Authors. SPDX-License-Identifier: Apache-2.0
"""nbconvert configuration for notebooks/execute.sh: logs each code cell to stderr just before it runs.

When the kernel dies or a cell runs past the timeout, nbconvert stops without writing the executed copy, so
check_outputs.py has no outputs to read; its --failed-run mode then takes the last of these lines from the
log to name the cell that was running. Loaded with `jupyter nbconvert --config notebooks/nbconvert_config.py`.
"""

import sys

c = get_config()  # noqa: F821 (traitlets defines get_config when it loads a config file)

# The marker check_outputs.py --failed-run looks for; the index is the cell's 0-based index in the notebook.
MARKER = "[check_outputs] executing cell"


def log_cell(cell, cell_index, **_):
    print("%s %d (id %s)" % (MARKER, cell_index, cell.get("id", "-")), file=sys.stderr, flush=True)


c.ExecutePreprocessor.on_cell_execute = log_cell
