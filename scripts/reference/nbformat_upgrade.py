#!/usr/bin/python3
"""Reference for nbformat.Upgrade of v3 notebooks: what Python nbformat writes
after reading a file as version 4 (nbformat.reads(..., as_version=4), which
upgrades v3), with every cell id replaced by "ID" (Python's ids are random),
written with the v4 writer (no validation, so no id repair) plus "\n".
Usage: nbformat_upgrade.py OUTDIR FILE...  -> OUTDIR/<n>.ipynb for the n-th
file (0-based), or OUTDIR/<n>.error holding the exception when it fails."""
import os, sys, warnings
warnings.filterwarnings('ignore')
import nbformat
from nbformat.v4 import nbjson

out_dir = sys.argv[1]
for n, path in enumerate(sys.argv[2:]):
    try:
        raw = open(path, encoding='utf-8', newline='').read()
        nb = nbformat.reads(raw, as_version=4)
        for c in nb.cells:
            c['id'] = 'ID'
        out = nbjson.writes(nb)
        if not out.endswith('\n'):
            out += '\n'
        open(os.path.join(out_dir, '%d.ipynb' % n), 'w', encoding='utf-8', newline='').write(out)
    except Exception as e:
        open(os.path.join(out_dir, '%d.error' % n), 'w').write(repr(e))
