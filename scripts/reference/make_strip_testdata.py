#!/usr/bin/python3
"""Makes cmd/ipynb/testdata/strip: notebooks exercising nbstripout's rules
(keep_output, the keep_output tag, init_cell, notebook-level keep_output,
transient keys, extra keys, nbformat 3), written by Python nbformat, and
the expected result of each strip case computed by strip_reference.py.
cases.txt lists them, one 'SOURCE<TAB>FLAGS<TAB>EXPECTED' per line, for
TestStripReference.
Usage (from the repository root): scripts/reference/make_strip_testdata.py"""
import os, subprocess, sys
import nbformat
from nbformat import v3, v4

here = os.path.dirname(os.path.abspath(__file__))
out = os.path.join('cmd', 'ipynb', 'testdata', 'strip')


def stream(text):
    return v4.new_output('stream', name='stdout', text=text)


def result(n, text):
    return v4.new_output('execute_result', execution_count=n, data={'text/plain': text})


def code(n, outputs, **metadata):
    c = v4.new_code_cell('x = %d\nx' % n, execution_count=n, outputs=outputs, metadata=metadata)
    c.id = 'cell%02d' % n
    return c


def keep_nb():
    nb = v4.new_notebook(metadata={
        'kernelspec': {'display_name': 'Python 3', 'language': 'python', 'name': 'python3'},
        'language_info': {'name': 'python', 'version': '3.11.2'},
        'widgets': {'application/vnd.jupyter.widget-state+json': {'state': {}, 'version_major': 2, 'version_minor': 0}},
        'toc': {'nav_menu': {}},
    })
    md = v4.new_markdown_cell('# Title\n![x](attachment:x.png)', metadata={'heading_collapsed': True, 'tags': ['intro']},
                              attachments={'x.png': {'image/png': 'iVBORw0KGgo='}})
    md.id = 'intro'
    raw = v4.new_raw_cell('raw text', metadata={'hidden': True})
    raw.id = 'raw'
    nb.cells = [
        md,
        code(1, [stream('SECRET TOKEN=abc\n')], collapsed=False, scrolled=True,
             ExecuteTime={'end_time': '2024-01-01T00:00:01', 'start_time': '2024-01-01T00:00:00'}),
        code(2, [result(2, '2'), v4.new_output('display_data', data={'text/plain': 'shown'})], keep_output=True),
        code(3, [result(3, '3')], tags=['keep_output', 'x']),
        code(4, [stream('init\n')], init_cell=True),
        code(5, [stream('init false\n')], init_cell=False, tags=['keep_output']),
        code(6, [stream('not kept\n')], keep_output=False),
        code(7, [result(7, '7')], keep_output=1),
        code(8, [v4.new_output('error', ename='E', evalue='v', traceback=['tb'])], trusted=True,
             execution={'iopub.execute_input': '2024-01-01T00:00:00.1Z'}),
        code(9, [], tags=['other']),
        raw,
    ]
    return nb


def keep_notebook_nb():
    nb = v4.new_notebook(metadata={'keep_output': True})
    nb.cells = [
        code(1, [stream('kept by the notebook\n')]),
        code(2, [stream('not kept\n')], keep_output=False),
        code(3, [stream('not kept either\n')], init_cell=False),
    ]
    return nb


def v3_nb():
    cells = [
        v3.new_heading_cell('Old', level=1),
        v3.new_code_cell(input='print(1)', prompt_number=1,
                         outputs=[v3.new_output('stream', output_text='SECRET\n', stream='stdout')]),
        v3.new_code_cell(input='1', prompt_number=2, metadata={'keep_output': True},
                         outputs=[v3.new_output('pyout', output_text='1', prompt_number=2)]),
        v3.new_code_cell(input='2', prompt_number=3, metadata={'trusted': True, 'collapsed': True},
                         outputs=[v3.new_output('pyout', output_text='2', prompt_number=3)]),
    ]
    return v3.new_notebook(name='old', worksheets=[v3.new_worksheet(cells=cells)])


CASES = [
    ('keep.ipynb', ''),
    ('keep.ipynb', '--keep-count'),
    ('keep.ipynb', '--keep-output'),
    ('keep.ipynb', '--keep-output --keep-count'),
    ('keep.ipynb', '--strip-init-cells'),
    ('keep.ipynb', '--extra-keys=metadata.kernelspec|metadata.language_info.version|cell.metadata.tags|cell.attachments'),
    ('keep.ipynb', '--keep-metadata-keys=cell.metadata.scrolled|metadata.widgets'),
    ('keep-notebook.ipynb', ''),
    ('keep-notebook.ipynb', '--keep-count'),
    ('v3-keep.ipynb', ''),
    ('v3-keep.ipynb', '--keep-count'),
    ('v3-keep.ipynb', '--keep-output'),
]


def main():
    os.makedirs(out, exist_ok=True)
    for name, nb in [('keep.ipynb', keep_nb()), ('keep-notebook.ipynb', keep_notebook_nb()), ('v3-keep.ipynb', v3_nb())]:
        with open(os.path.join(out, name), 'w', encoding='utf-8', newline='') as f:
            nbformat.write(nb, f, version=nb.nbformat)
    lines = []
    for src, flags in CASES:
        args = flags.split()
        tag = '.'.join(a.split('=')[0].lstrip('-') for a in args) or 'default'
        dst = src.replace('.ipynb', '.%s.ipynb' % tag)
        py = [a.replace('|', ' ') for a in args]
        subprocess.run([sys.executable, os.path.join(here, 'strip_reference.py')] + py +
                       [os.path.join(out, src), os.path.join(out, dst)], check=True)
        lines.append('%s\t%s\t%s\n' % (src, flags, dst))
    with open(os.path.join(out, 'cases.txt'), 'w') as f:
        f.writelines(lines)


if __name__ == '__main__':
    main()
