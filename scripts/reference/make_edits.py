#!/usr/bin/python3
"""Reference for contract 2 (an edit touches only what was edited; new parts
take the file's own style). For each testdata notebook of a distinct writer
style, applies one fixed set of edits to its JSON with Python's json module
and writes the result in that file's own style (indent, key order, escaping,
separators, line splitting, line endings, final newline) to
testdata/edits/NAME. nbformat_test.go applies the same edits through the Go
API and must produce these bytes.

The edits:
  1. cells[1].source = "print('edited')\\n# é ☕\\n" (lines or a string, as the file keeps sources)
  2. delete cells[2]
  3. metadata.my_app.version = 2
  4. cells[0].metadata.added = true
  5. append a markdown cell "New *cell*\\nline 2" (id "newcell1" in 4.5 files)

Usage (from the repository root): scripts/reference/make_edits.py"""
import json, os

NEW_SOURCE = "print('edited')\n# é ☕\n"
NEW_CELL = "New *cell*\nline 2"

def splitlines(s): return s.splitlines(True)
def split_nl(s):
    parts = s.split('\n')
    out = [p + '\n' for p in parts[:-1]]
    if parts[-1]:
        out.append(parts[-1])
    return out

# name: (dumps keyword arguments, sorted keys, line-splitting rule, final text, crlf)
STYLES = {
    'jupyter.ipynb': (dict(indent=1, ensure_ascii=False), True, splitlines, '\n', False),
    'vscode.ipynb': (dict(indent=1, ensure_ascii=False), True, split_nl, '\n', False),
    'colab.ipynb': (dict(indent=2, ensure_ascii=False), False, splitlines, '\n', False),
    'kaggle.ipynb': (dict(), True, None, '', False),
    'minified.ipynb': (dict(separators=(',', ':'), ensure_ascii=False), True, splitlines, '', False),
    'indent4-nonl.ipynb': (dict(indent=4, ensure_ascii=False), True, splitlines, '', False),
    'crlf.ipynb': (dict(indent=1, ensure_ascii=False), True, splitlines, '\n', True),
    'ascii.ipynb': (dict(indent=1), True, splitlines, '\n', False),
    'dialog.ipynb': (dict(indent=1, ensure_ascii=False), True, splitlines, '\n', False),
    'v4.4.ipynb': (dict(indent=1, ensure_ascii=False), True, splitlines, '\n', False),
}

os.makedirs('testdata/edits', exist_ok=True)
for name, (kw, sort, split, final, crlf) in STYLES.items():
    d = json.loads(open(os.path.join('testdata', name), encoding='utf-8').read())
    cells = d['cells']
    src = cells[1]['source']
    cells[1]['source'] = split(NEW_SOURCE) if isinstance(src, list) else NEW_SOURCE
    del cells[2]
    if 'my_app' in d['metadata']:
        d['metadata']['my_app']['version'] = 2
    cells[0]['metadata']['added'] = True
    new = {'cell_type': 'markdown', 'metadata': {}}
    if d['nbformat_minor'] >= 5:
        new['id'] = 'newcell1'
    new['source'] = split(NEW_CELL) if split else NEW_CELL
    cells.append(new)
    text = json.dumps(d, sort_keys=sort, **kw) + final
    if crlf:
        text = text.replace('\n', '\r\n')
    with open(os.path.join('testdata/edits', name), 'w', encoding='utf-8', newline='') as f:
        f.write(text)
    print('wrote testdata/edits/' + name)
