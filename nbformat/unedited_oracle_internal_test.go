package nbformat

import (
	"fmt"
	"strings"

	"github.com/nbdialog/ipynb/internal/jsontree"

	"github.com/nbdialog/ipynb/internal/zerocopy"
)

// The oracles of the attacks on the unedited check (attack_snap*_test.go):
// the reflective walk of equal.go, which decided "unedited" before the
// generated comparison (eqStruct, over codec_gen.go) did.

// walkSaysUnedited is the reflective walk's answer.
func walkSaysUnedited(nb *Notebook) bool {
	e := nb.newEncoder()
	v := reflectDocument(nb)
	return e.equal(v, infoOf(v.Type()), jsontree.Root)
}

// snapSaysUnedited is the generated comparison's answer.
func snapSaysUnedited(nb *Notebook) bool { return nb.unedited() }

// inInputOf reports whether b views the bytes nb was read from.
func inInputOf(nb *Notebook, b []byte) bool { return zerocopy.In(b, nb.src.tape.Data) }

// blockNotebook returns a notebook of n code cells, each with an id,
// tags, an execution count, a source of lines and three outputs, the
// notebook with a kernelspec and language_info. (The sources are long
// enough for the blocks to hold fewer bytes than the file: see
// snapshot.take.)
func blockNotebook(n int) []byte {
	var b strings.Builder
	b.WriteString(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"},` +
		` "language_info": {"name": "python", "version": "3.12.1", "file_extension": ".py"}}, "cells": [`)
	for i := range n {
		if i > 0 {
			b.WriteString(", ")
		}
		fmt.Fprintf(&b, `{"cell_type": "code", "id": "c%d", "execution_count": %d, "metadata": {"tags": ["t%d", "x"], "collapsed": false},`+
			` "source": ["x = %d  # `+strings.Repeat("a comment of some length ", 30)+`\n", "print(x)"], "outputs": [{"output_type": "stream", "name": "stdout", "text": ["%d\n"]},`+
			` {"output_type": "execute_result", "execution_count": %d, "data": {"text/plain": ["%d"]}, "metadata": {}},`+
			` {"output_type": "display_data", "data": {"image/png": "iVBO%d", "text/plain": ["<Figure>"]}, "metadata": {}}]}`,
			i, i+1, i, i, i, i+1, i, i)
		if i%4 == 3 {
			fmt.Fprintf(&b, `, {"cell_type": "markdown", "id": "m%d", "metadata": {}, "source": "# %d"}`, i, i)
		}
	}
	b.WriteString("]}\n")
	return []byte(b.String())
}

// TestUneditedCheckByBlocks checks that the unedited check compares the
// cells, outputs and the values they hold as the decoder's blocks (see
// snapblock.go): the values it walks one by one are as many for a
// notebook of 8 cells as for one of 128 (the kernelspec, language_info,
