#!/bin/sh
# Computes, with Debian's python3-nbformat, the reference expectations for
# testdata/*.ipynb that the Go tests compare against:
#   testdata/canonical/NAME  what nbformat writes (nbformat_canonical.py;
#                            absent when nbformat writes the file unchanged)
#   testdata/verdicts.txt    strict schema verdict per file (nbformat_verdict.py)
# Usage (from the repository root): scripts/reference/make_expectations.sh
set -eu
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
mkdir "$tmp/src"
cp testdata/*.ipynb "$tmp/src/"
rm -rf testdata/canonical
/usr/bin/python3 scripts/reference/nbformat_canonical.py "$tmp/src" testdata/canonical | sed "s#$tmp/src/##"
(cd "$tmp/src" && /usr/bin/python3 "$OLDPWD/scripts/reference/nbformat_verdict.py" *.ipynb) > testdata/verdicts.txt
cat testdata/verdicts.txt
