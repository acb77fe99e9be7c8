#!/usr/bin/python3
"""Reference for 'ipynb strip' on canonical notebooks: nbstripout's default
behaviour (outputs removed, execution counts set to null, and its default
extra keys metadata.signature, metadata.widgets and cell.metadata.
{collapsed, ExecuteTime, execution, heading_collapsed, hidden, scrolled}
removed), applied to the JSON and written by Python nbformat. For a file
that nbformat writes unchanged, ipynb strip (which keeps each file's
style) must produce exactly these bytes.
Usage: strip_reference.py IN OUT [--keep-count]"""
import json, sys
import nbformat
from nbformat.v4 import nbjson

keep_count = '--keep-count' in sys.argv[3:]
nb = nbformat.from_dict(json.loads(open(sys.argv[1], encoding='utf-8').read()))
for k in ('signature', 'widgets'):
    nb.metadata.pop(k, None)
for c in nb.cells:
    for k in ('collapsed', 'ExecuteTime', 'execution', 'heading_collapsed', 'hidden', 'scrolled'):
        c.metadata.pop(k, None)
    if c.cell_type == 'code':
        c.outputs = []
        if not keep_count:
            c.execution_count = None
out = nbjson.writes(nb, split_lines=False) + '\n'
open(sys.argv[2], 'w', encoding='utf-8', newline='').write(out)
