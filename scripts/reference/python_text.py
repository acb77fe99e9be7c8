#!/usr/bin/python3
"""Reference tables for text handling, from CPython itself:
  nbformat/testdata/splitlines.json       str.splitlines(True) of each case
  internal/jsontree/testdata/python-strings.json
                                           json.dumps of each case with
                                           ensure_ascii False and True
Usage (from the repository root): scripts/reference/python_text.py"""
import json, os
boundaries = ['\n', '\r', '\r\n', '\v', '\f', '\x1c', '\x1d', '\x1e', '\x85', '\u2028', '\u2029']
cases = ['', 'a', 'a\n', '\n', '\n\n', 'a\nb', 'a\r\nb\r\n', '\r\r\n\n', 'no newline at end', 'x\u2028y\u2029z\x85w',
         'a\rb\u2028c\x0bd\n', '\t\x00\x1f\x7f', 'é\n🤖\r\n', 'tab\tin\tline\n', '\x0c\x0c', 'end\r']
for b in boundaries:
    cases += ['before' + b + 'after', b, b + b, 'x' + b]
os.makedirs('nbformat/testdata', exist_ok=True)
with open('nbformat/testdata/splitlines.json', 'w') as f:
    json.dump([[c, c.splitlines(True)] for c in cases], f, indent=1)
strings = cases + ['"quoted" and \\backslash\\', '\b\f\n\r\t', '<script>&</script>', '/slash/', 'café ☕ 🤖 \U0010ffff',
                   ''.join(chr(i) for i in range(0, 0x80)), '\u2028\u2029', 'ÿĀ߿ࠀ\uffff']
os.makedirs('internal/jsontree/testdata', exist_ok=True)
with open('internal/jsontree/testdata/python-strings.json', 'w') as f:
    json.dump([[s, json.dumps(s, ensure_ascii=False), json.dumps(s, ensure_ascii=True)] for s in strings], f, indent=1)
