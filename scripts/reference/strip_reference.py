#!/usr/bin/python3
"""Reference for 'ipynb strip': nbstripout's rules (../shared/reference/FACTS.md
e.4, and nbstripout's documented behaviour), applied to the JSON as Python
reads it and written by Python nbformat's writer for the notebook's own
version (v4 or v3 nbjson, split_lines=False: text keeps the form it has,
as 'ipynb strip' keeps each file's style). For a file that this writer
writes unchanged, 'ipynb strip' must produce exactly these bytes.

The rules, in nbstripout's order:
  1. the notebook's metadata.keep_output, when present and --keep-output is
     not given, is the default for every cell (Python truthiness);
  2. metadata.* extra keys are popped from the notebook metadata; a key
     a.b.c is popped as nbstripout's pop_recursive does (the dotted key
     itself if present, else c inside b inside a);
  3. for each cell (nbformat 4: /cells; older: /worksheets/N/cells), of any
     type: the cell keeps its outputs when metadata.init_cell is present
     and true (and not --strip-init-cells; when present it decides alone),
     else when metadata.keep_output is true or 'keep_output' is in its
     tags, else by the default; keep_output false with the tag is an error;
     outputs not kept become []; kept outputs' execution_count becomes
     null unless --keep-count; the cell's execution_count and
     prompt_number become null unless --keep-count; cell.* extra keys are
     popped from the cell. Cell ids are kept (nbstripout --keep-id).
  4. the writer drops transient keys (strip_transient): v4 metadata
     orig_nbformat, orig_nbformat_minor, signature and cell metadata
     trusted; v3 top-level orig_nbformat(_minor), cell trusted and cell
     metadata trusted.
Default extra keys: metadata.signature metadata.widgets
cell.metadata.{collapsed,ExecuteTime,execution,heading_collapsed,hidden,scrolled};
--keep-metadata-keys removes some of them.

Usage: strip_reference.py [--keep-output] [--keep-count] [--strip-init-cells]
           [--extra-keys KEYS] [--keep-metadata-keys KEYS] IN OUT
       strip_reference.py [same options] --dir SRC DST
With --dir, every *.ipynb under SRC is stripped into DST (same relative
path); a file that cannot be stripped is listed on standard output as
'error<TAB>path<TAB>reason' and not written."""
import argparse, json, os, sys
import nbformat
from nbformat.v4 import nbjson as nbjson4
from nbformat.v3 import nbjson as nbjson3

DEFAULT_KEYS = ['metadata.signature', 'metadata.widgets',
                'cell.metadata.collapsed', 'cell.metadata.ExecuteTime',
                'cell.metadata.execution', 'cell.metadata.heading_collapsed',
                'cell.metadata.hidden', 'cell.metadata.scrolled']


def pop_path(d, key):
    """Remove key from dict d; 'a.b' falls back to b inside d['a']."""
    if not isinstance(d, dict):
        return
    if key in d:
        del d[key]
        return
    if '.' in key:
        head, tail = key.split('.', 1)
        if head in d:
            pop_path(d[head], tail)


def keeps_output(cell, default, strip_init_cells):
    md = cell.get('metadata')
    if not isinstance(md, dict):
        return default
    if 'init_cell' in md:
        return bool(md['init_cell']) and not strip_init_cells
    tags = md.get('tags', [])
    tagged = isinstance(tags, (list, str, dict)) and 'keep_output' in tags
    if 'keep_output' in md:
        if tagged and not md['keep_output']:
            raise ValueError('cell metadata contradicts tags')
        return bool(md['keep_output']) or tagged
    return True if tagged else default


def strip(nb, opts):
    keys = [k for k in DEFAULT_KEYS if k not in opts.keep_metadata_keys.split()]
    keys += [k for k in opts.extra_keys.split() if k not in keys]
    default = opts.keep_output
    if not default and isinstance(nb.get('metadata'), dict) and 'keep_output' in nb['metadata']:
        default = bool(nb['metadata']['keep_output'])
    for k in keys:
        if k.startswith('metadata.'):
            pop_path(nb.get('metadata'), k[len('metadata.'):])
    if nb['nbformat'] >= 4:
        cells = nb['cells']
    else:
        cells = [c for ws in nb['worksheets'] for c in ws['cells']]
    for cell in cells:
        keep = keeps_output(cell, default, opts.strip_init_cells)
        if 'outputs' in cell:
            if not keep:
                cell['outputs'] = []
            elif not opts.keep_count:
                for out in cell['outputs']:
                    if 'execution_count' in out:
                        out['execution_count'] = None
        if not opts.keep_count:
            for k in ('execution_count', 'prompt_number'):
                if k in cell:
                    cell[k] = None
        for k in keys:
            if k.startswith('cell.'):
                pop_path(cell, k[len('cell.'):])
    return nb


def strip_file(src, dst, opts):
    with open(src, encoding='utf-8') as f:
        nb = json.loads(f.read())
    nb = strip(nb, opts)
    if nb['nbformat'] >= 4:
        out = nbjson4.writes(nbformat.from_dict(nb), split_lines=False)
    else:
        out = nbjson3.writes(nbformat.v3.nbbase.from_dict(nb), split_lines=False)
    with open(dst, 'w', encoding='utf-8', newline='') as f:
        f.write(out + '\n')


def main():
    p = argparse.ArgumentParser()
    p.add_argument('--keep-output', action='store_true')
    p.add_argument('--keep-count', action='store_true')
    p.add_argument('--strip-init-cells', action='store_true')
    p.add_argument('--extra-keys', default='')
    p.add_argument('--keep-metadata-keys', default='')
    p.add_argument('--dir', action='store_true')
    p.add_argument('src')
    p.add_argument('dst')
    opts = p.parse_args()
    if not opts.dir:
        strip_file(opts.src, opts.dst, opts)
        return
    for base, dirs, files in os.walk(opts.src):
        dirs.sort()
        for name in sorted(files):
            if not name.endswith('.ipynb'):
                continue
            src = os.path.join(base, name)
            rel = os.path.relpath(src, opts.src)
            dst = os.path.join(opts.dst, rel)
            os.makedirs(os.path.dirname(dst), exist_ok=True)
            try:
                strip_file(src, dst, opts)
            except Exception as e:  # the reason is reported, the file skipped
                if os.path.exists(dst):
                    os.remove(dst)
                print('error\t%s\t%s: %s' % (rel, type(e).__name__, str(e).replace('\n', ' ')[:200]))


if __name__ == '__main__':
    main()
