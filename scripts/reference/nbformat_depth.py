#!/usr/bin/python3
"""Where Python nbformat's writer fails on deep nesting (RecursionError), per shape.

nbformat's v4 writer deep-copies the notebook (copy.deepcopy) before json.dumps; deepcopy uses
Python frames in proportion to the nesting, so a deep enough notebook raises RecursionError
(Python's default recursion limit is 1000). This script finds, for each shape (a template
notebook with "@" where a chain of nested objects ("d": {"k": ...}) and arrays ("l": [...]) is
placed, the chain repeating PATTERN from the outside in, 1 at the bottom), the smallest chain
length N the reference script nbformat_canonical.py fails on (skip-error), scanning N over a
window and checking that every shorter chain is written and every longer one fails.

The reference script runs on all files of a folder in one process, after a warm-up notebook
holding values of every JSON type: Python caches isinstance() answers for abstract classes
(collections.abc.Mapping, checked by NotebookNode.__setitem__ in deepcopy), and the first check
for a type costs extra frames where it happens; the table is for the warmed, steady state.

Version 3 notebooks (names starting "v3") are checked the same way with V3_REFERENCE below: Python
nbformat's v3 reader and writer (nbformat.v3.nbjson.reads, then writes), called from a script's
top level, as nbformat_canonical.py calls the v4 ones.

Usage: nbformat_depth.py > testdata/canonical_depth.tsv
Columns: name, pattern, limit (first N that fails), template (JSON, "@" for the chain)."""
import json, os, subprocess, sys, tempfile

HERE = os.path.dirname(os.path.abspath(__file__))

def base():
    return {"cells": [
        {"cell_type": "code", "execution_count": None, "id": "a", "metadata": {},
         "outputs": [{"data": {}, "metadata": {}, "output_type": "display_data"}], "source": ""},
        {"attachments": {"a.png": {}}, "cell_type": "markdown", "id": "b", "metadata": {}, "source": ""}],
        "metadata": {}, "nbformat": 4, "nbformat_minor": 5}

def template(where):
    d = base()
    if where == "nbmeta": d["metadata"]["x"] = "@"
    elif where == "nbmeta2": d["metadata"]["kernelspec"] = {"name": "p", "display_name": "P", "x": ["@"]}
    elif where == "cellmeta": d["cells"][0]["metadata"]["x"] = "@"
    elif where == "outdata": d["cells"][0]["outputs"][0]["data"]["application/json"] = "@"
    elif where == "outmeta": d["cells"][0]["outputs"][0]["metadata"]["x"] = "@"
    elif where == "attach": d["cells"][1]["attachments"]["a.png"]["application/json"] = "@"
    elif where == "unknown": d["cells"][1]["x"] = "@"
    elif where == "signature": d["metadata"]["signature"] = "@"  # removed by strip_transient before the copy
    elif where == "trusted": d["cells"][0]["metadata"]["trusted"] = "@"  # likewise
    return json.dumps(d)

def template_v3(where):
    d = {"metadata": {"name": ""}, "nbformat": 3, "nbformat_minor": 0, "worksheets": [{"cells": [
        {"cell_type": "code", "collapsed": False, "input": [], "language": "python", "metadata": {},
         "outputs": [{"output_type": "pyout", "prompt_number": 1, "metadata": {}, "text": ["1"]}]}], "metadata": {}}]}
    if where == "v3meta": d["metadata"]["x"] = "@"
    elif where == "v3cellmeta": d["worksheets"][0]["cells"][0]["metadata"]["x"] = "@"
    elif where == "v3output": d["worksheets"][0]["cells"][0]["outputs"][0]["x"] = "@"
    elif where == "v3orig": d["orig_nbformat"] = "@"  # removed by strip_transient before the copy
    elif where == "v3trusted": d["worksheets"][0]["cells"][0]["trusted"] = "@"  # likewise
    return json.dumps(d)

V3_REFERENCE = """import os, sys, warnings
warnings.filterwarnings('ignore')
from nbformat.v3 import nbjson
src = sys.argv[1]
for name in sorted(os.listdir(src)):
    try:
        nb = nbjson.reads(open(os.path.join(src, name), encoding='utf-8').read())
        nbjson.writes(nb)
        print('rewritten', name)
    except Exception:
        print('skip-error', name)
"""

WARMUP_V3 = json.dumps({"metadata": {"name": "", "x": [None, True, 1, 1.5, "s", [], {}], "y": {"a": False}}, "nbformat": 3,
                        "nbformat_minor": 0, "worksheets": [{"cells": [], "metadata": {}}]})

def chain(pattern, n):
    opens = []
    for j in range(n):
        opens.append('{"k": ' if pattern[j % len(pattern)] == "d" else "[")
    closes = ["}" if o.startswith("{") else "]" for o in reversed(opens)]
    return "".join(opens) + "1" + "".join(closes)

WARMUP = json.dumps({"cells": [{"cell_type": "code", "execution_count": 1, "id": "w", "metadata": {"b": True, "f": 1.5, "n": None, "l": [1], "s": "x", "d": {"a": False}},
                                "outputs": [], "source": ["a\n", "b"]}], "metadata": {"x": [None, True, 1, 1.5, "s", [], {}]}, "nbformat": 4, "nbformat_minor": 5})

SHAPES = [(w, p) for w in ["nbmeta", "nbmeta2", "cellmeta", "outdata", "outmeta", "attach", "unknown", "signature", "trusted"]
          for p in ["d", "l", "dl", "ld", "ddl", "dll", "lld", "ldd"]]
SHAPES_V3 = [(w, p) for w in ["v3meta", "v3cellmeta", "v3output"] for p in ["d", "l", "dl", "ld"]]
# Where only the reader and json.loads recurse, objects cost less: a wider window.
SHAPES_V3_STRIPPED = [(w, p) for w in ["v3orig", "v3trusted"] for p in ["d", "l", "dl", "ld", "ddl"]]
LO, HI = 470, 520

def scan(shapes, template, warmup, command, lo=LO, hi=HI):
    with tempfile.TemporaryDirectory() as src, tempfile.TemporaryDirectory() as dst:
        with open(os.path.join(src, "0000-warmup.ipynb"), "w") as f:
            f.write(warmup)
        for w, p in shapes:
            t = template(w)
            for n in range(lo, hi + 1):
                with open(os.path.join(src, f"{w}-{p}-{n:04d}.ipynb"), "w") as f:
                    f.write(t.replace('"@"', chain(p, n)))
        out = subprocess.run(command(src, dst), check=True, capture_output=True, text=True).stdout
    status = {}
    for line in out.splitlines():
        st, _, name = line.partition(" ")
        status[name] = st
    assert status.get("0000-warmup.ipynb") in ("rewritten", "same"), status.get("0000-warmup.ipynb")
    for w, p in shapes:
        fails = [status[f"{w}-{p}-{n:04d}.ipynb"] == "skip-error" for n in range(lo, hi + 1)]
        limit = lo + fails.index(True)
        assert not any(fails[:limit - lo]) and all(fails[limit - lo:]) and limit > lo, (w, p, fails)
        print(f"{w}\t{p}\t{limit}\t{template(w)}")

def main():
    print("# name\tpattern\tlimit\ttemplate (scripts/reference/nbformat_depth.py)")
    scan(SHAPES, template, WARMUP, lambda src, dst: [sys.executable, os.path.join(HERE, "nbformat_canonical.py"), src, dst])
    v3 = lambda src, dst: [sys.executable, "-c", V3_REFERENCE, src]
    scan(SHAPES_V3, template_v3, WARMUP_V3, v3)
    scan(SHAPES_V3_STRIPPED, template_v3, WARMUP_V3, v3, 450, 1010)

main()
