#!/usr/bin/python3
"""Builds the small notebooks in testdata/, one per writer style, with
Python nbformat and the json module (Debian's python3-nbformat), so that the
repository stands alone without ../shared/corpus. Deterministic: running it
again gives the same bytes. Then run scripts/reference/make_expectations.sh.

Usage (from the repository root): scripts/reference/make_testdata.py"""
import base64, copy, json, os
import nbformat
from nbformat.v4 import new_notebook, new_code_cell, new_markdown_cell, new_raw_cell, new_output
from nbformat.v3 import new_notebook as new_nb3, new_worksheet, new_code_cell as code3, new_text_cell, new_heading_cell, new_output as out3

OUT = 'testdata'
png = base64.b64encode(bytes(range(256)) * 3).decode()

def base_notebook():
    nb = new_notebook(metadata={
        'kernelspec': {'display_name': 'Python 3', 'language': 'python', 'name': 'python3'},
        'language_info': {'name': 'python', 'version': '3.11.7', 'codemirror_mode': {'name': 'ipython', 'version': 3}},
        'my_app': {'version': 1, 'flags': ['a', 'b']},
    })
    cells = [
        new_markdown_cell('# Café ☕ and 🤖\n\nA *note* with an image: ![x](attachment:x.png)', id='a1b2c3d4',
                          attachments={'x.png': {'image/png': png}}),
        new_code_cell('import sys\nprint("hello")\nsys.stderr.write("warn\\n")', id='b2c3d4e5', execution_count=1,
                      metadata={'collapsed': False, 'tags': ['setup'], 'scrolled': 'auto'},
                      outputs=[new_output('stream', name='stdout', text='hello\n'),
                               new_output('stream', name='stderr', text='warn\n')]),
        new_code_cell('1+1', id='c3d4e5f6', execution_count=2,
                      outputs=[new_output('execute_result', execution_count=2, data={'text/plain': '2'})]),
        new_code_cell('plot()', id='d4e5f6a7', execution_count=3,
                      outputs=[new_output('display_data', data={'image/png': png, 'text/plain': '<Figure size 640x480 with 1 Axes>',
                                                                 'application/json': {'a': [1, 2.5, None, True]}},
                                          metadata={'image/png': {'width': 640}})]),
        new_code_cell('1/0', id='e5f6a7b8', execution_count=4,
                      outputs=[new_output('error', ename='ZeroDivisionError', evalue='division by zero',
                                          traceback=['\x1b[0;31m---------\x1b[0m', 'ZeroDivisionError: division by zero'])]),
        new_markdown_cell('Line one\r\nline two\rthree\x0cfour\u2028five', id='f6a7b8c9'),
        new_raw_cell('raw text', id='a7b8c9d0', metadata={'format': 'text/plain'}),
        new_code_cell('', id='b8c9d0e1'),
    ]
    nb.cells = cells
    return nb

def write(name, text):
    with open(os.path.join(OUT, name), 'w', encoding='utf-8', newline='') as f:
        f.write(text)

def plain(nb):
    """the notebook as plain JSON-able dicts, lists split like nbformat's writer"""
    return json.loads(nbformat.writes(nb))

# 1. Python nbformat itself (canonical).
nb = base_notebook()
write('jupyter.ipynb', nbformat.writes(nb) + '\n')

# 2. VS Code: sorted keys, indent 1, lines split on "\n" only, orig_nbformat metadata.
d = plain(nb)
d['metadata']['orig_nbformat'] = 4
def split_nl(s):
    parts = s.split('\n')
    out = [p + '\n' for p in parts[:-1]]
    if parts[-1]:
        out.append(parts[-1])
    return out
for c in d['cells']:
    c['source'] = split_nl(''.join(c['source']))
write('vscode.ipynb', json.dumps(d, indent=1, sort_keys=True, ensure_ascii=False) + '\n')

# 3. Colab: 4.0, 2-space, unsorted keys (nbformat, nbformat_minor, metadata, cells), ids in metadata.id.
d = plain(nb)
cells = []
for c in d['cells']:
    cid = c.pop('id')
    c['metadata'] = dict(id='colab' + cid, **c['metadata'])
    order = ['cell_type', 'metadata', 'source', 'execution_count', 'outputs', 'attachments']
    cells.append({k: c[k] for k in order if k in c})
colab = {'nbformat': 4, 'nbformat_minor': 0,
         'metadata': {'colab': {'name': 'demo.ipynb', 'provenance': []}, 'kernelspec': d['metadata']['kernelspec']},
         'cells': cells}
write('colab.ipynb', json.dumps(colab, indent=2, ensure_ascii=False) + '\n')

# 4. Kaggle-style one-liner: json.dumps defaults (", " and ": ", ASCII escapes), sources as strings, no newline at the end.
d = plain(nb)
d['nbformat_minor'] = 4
for c in d['cells']:
    c.pop('id')
    c['source'] = ''.join(c['source'])
write('kaggle.ipynb', json.dumps(d))

# 5. Compact with no spaces at all (minified).
write('minified.ipynb', json.dumps(plain(nb), separators=(',', ':'), ensure_ascii=False))

# 6. Four spaces, no final newline.
write('indent4-nonl.ipynb', json.dumps(plain(nb), indent=4, ensure_ascii=False))

# 7. CRLF line endings in the layout (a Windows checkout) and in sources.
d = plain(nb)
d['cells'][0]['source'] = ['# Title\r\n', '\r\n', 'text\r\n']
write('crlf.ipynb', (json.dumps(d, indent=1, sort_keys=True, ensure_ascii=False) + '\n').replace('\n', '\r\n'))

# 8. ASCII-escaped (ensure_ascii=True), like nbformat 3's writer and ipyai.
write('ascii.ipynb', json.dumps(plain(nb), indent=1, sort_keys=True) + '\n')

# 9. Numbers Python spells its own way, base64 stored as lists of lines, tabs.
d = plain(nb)
d['metadata']['numbers'] = {'nan': float('nan'), 'inf': float('inf'), 'ninf': float('-inf'),
                            'big': 123456789012345678901234567890, 'one': 1.0, 'tiny': 2.5e-07, 'huge': 1e16}
out = d['cells'][3]['outputs'][0]
out['data']['image/png'] = [png[i:i + 76] + '\n' for i in range(0, len(png), 76)]
text = json.dumps(d, indent='\t', sort_keys=True, ensure_ascii=False) + '\n'
text = text.replace('"one": 1.0', '"one": 1.00').replace('"huge": 1e+16', '"huge": 1E16')
write('numbers.ipynb', text)

# 10. A dialog as Solveit writes it: prompts with the reply separator, solveit metadata.
sep = '\n\n##### 🤖Reply🤖<!-- SOLVEIT_SEPARATOR_7f3a9b2c -->\n\n'
dnb = new_notebook(metadata={'solveit_dialog_mode': 'learning', 'solveit_ver': 2})
dnb.cells = [
    new_markdown_cell('A *test* dialog', id='a54dca18', attachments={'2530bb1d-6d13-4cde-8623-7b2ed91e3f72': {'image/png': 'bm90IHJlYWxseSBhIHBuZw=='}}),
    new_code_cell('1+1', id='0b9c3d7e', outputs=[new_output('execute_result', execution_count=1, data={'text/plain': '2'})]),
    new_markdown_cell('Add them.' + sep + 'The answer is **2**.', id='5f1e2d3c', metadata={'solveit_ai': True, 'pinned': True}),
    new_raw_cell('plain text', id='9a8b7c6d'),
    new_markdown_cell('Hello?', id='1c2d3e4f', metadata={'solveit_ai': True, 'skipped': True, 'time_run': '2026-01-21T22:59:53.705486+00:00'}),
]
write('dialog.ipynb', nbformat.writes(dnb) + '\n')

# 11. nbformat 4.4 without ids.
d = plain(nb)
d['nbformat_minor'] = 4
for c in d['cells']:
    c.pop('id')
write('v4.4.ipynb', json.dumps(d, indent=1, sort_keys=True, ensure_ascii=False) + '\n')

# 12. nbformat 3 (worksheets, heading, pyout, mime aliases), written by nbformat's v3 writer.
nb3 = new_nb3(name='old', metadata={'name': 'old'})
ws = new_worksheet(cells=[
    new_heading_cell('Old notebook', level=2),
    new_text_cell('markdown', source='Some *text*\nover lines'),
    code3(input='print(1)\n1', prompt_number=1, outputs=[
        out3('stream', output_text='1\n', stream='stdout'),
        out3('pyout', output_text='1', prompt_number=1),
        out3('display_data', output_png=png, output_text='<img>'),
        out3('pyerr', ename='E', evalue='v', traceback=['tb'])]),
])
nb3.worksheets = [ws]
write('v3.ipynb', nbformat.writes(nb3, version=nbformat.NO_CONVERT) + '\n')

# 13. Schema-invalid: stray outputs on markdown, a duplicate id, a missing id, a bad execution_count.
d = plain(nb)
d['cells'][0]['outputs'] = []
d['cells'][2]['id'] = d['cells'][1]['id']
d['cells'][6].pop('id')
d['cells'][4]['execution_count'] = -1
write('invalid.ipynb', json.dumps(d, indent=1, sort_keys=True, ensure_ascii=False) + '\n')

# 14. A future minor version with an unknown cell type and output type.
d = plain(nb)
d['nbformat_minor'] = 99
d['cells'].insert(1, {'cell_type': 'chart', 'id': 'chart001', 'metadata': {}, 'spec': {'mark': 'bar'}})
d['cells'][3]['outputs'].append({'output_type': 'widget', 'model': 'abc'})
write('future.ipynb', json.dumps(d, indent=1, sort_keys=True, ensure_ascii=False) + '\n')
