package convert_test

// Tests that the dialog layer allocates a bounded number of times per message
// beyond nbformat's round trip.

import (
	"fmt"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/nbformat"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// cellPairs returns a notebook of n pairs of cells shaped as the corpus's
// are: a markdown cell with metadata of keys the schema does not type and
// its source in lines, and a code cell with an execution count, a stream
// output and its source in lines; version 4.5 (with ids) or version 3
// (worksheets, the cells' input and prompt numbers, no ids).
func cellPairs(version, n int) []byte {
	var cells []string
	for i := range n {
		if version == 3 {
			cells = append(cells,
				fmt.Sprintf(`{"cell_type": "markdown", "metadata": {}, "source": ["# Title %d\n", "text line\n", "more"]}`, i),
				fmt.Sprintf(`{"cell_type": "code", "collapsed": false, "input": ["print(%d)\n", "x = 1"], "language": "python", "metadata": {}, "outputs": [{"output_type": "stream", "stream": "stdout", "text": ["out %d\n"]}], "prompt_number": %d}`, i, i, i))
			continue
		}
		cells = append(cells,
			fmt.Sprintf(`{"cell_type": "markdown", "id": "m%d", "metadata": {"a": %d, "b": "x"}, "source": ["# Title %d\n", "text line\n", "more"]}`, i, i, i),
			fmt.Sprintf(`{"cell_type": "code", "id": "c%d", "execution_count": %d, "metadata": {"x": 1}, "outputs": [{"output_type": "stream", "name": "stdout", "text": ["out %d\n"]}], "source": ["print(%d)\n", "x = 1"]}`, i, i, i, i))
	}
	if version == 3 {
		return []byte(`{"nbformat": 3, "nbformat_minor": 0, "metadata": {"name": ""}, "worksheets": [{"cells": [` + strings.Join(cells, ", ") + `], "metadata": {}}]}`)
	}
	return []byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}, "cells": [` + strings.Join(cells, ", ") + `]}`)
}

// perPair is the number of allocations f makes per pair of cells of
// cellPairs(version, ·): the difference between 100 and 50 pairs, over 50.
func perPair(t *testing.T, version int, f func(data []byte)) float64 {
	t.Helper()
	at := func(n int) float64 {
		data := cellPairs(version, n)
		return testing.AllocsPerRun(5, func() { f(data) })
	}
	return (at(100) - at(50)) / 50
}

// What the dialog layer allocates per message, beyond what nbformat's
// round trip of the same cells allocates, is bounded: for a version 4.5
// notebook at most 5 per pair of messages (their metadata maps: 4.0; it
// was 15 when each message's outputs, execution count and snapshot were
// allocated one by one, 7 when each text, output handle and snapshot
// map entry still was), for a version 3 one at most 1 beyond nbformat's
// round trip of the same cells as version 4.5 (-1.1: the upgrade's texts
// in one buffer, its parse without a snapshot, the snapshots of the
// code cells sharing their {"collapsed": false}; it was 3.9 before
// those, 12.9 when they came one by one, 74 when the upgrade went through
// generic JSON and derived every id twice).
func TestDialogAllocationsPerMessage(t *testing.T) {
	if testtier.Race {
		t.Skip("the race detector's instrumentation allocates")
	}
	roundTrip := func(data []byte) {
		d, err := convert.Unmarshal(data, convert.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if _, err := convert.Marshal(d, convert.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	nbformatRoundTrip := func(data []byte) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		_ = nbformat.Validate(nb)
		if _, err := nbformat.Marshal(nb); err != nil {
			t.Fatal(err)
		}
	}
	base := perPair(t, 4, nbformatRoundTrip)
	v4, v3 := perPair(t, 4, roundTrip), perPair(t, 3, roundTrip)
	t.Logf("allocations per pair of cells: nbformat %.1f, dialog of version 4.5 %.1f, of version 3 %.1f", base, v4, v3)
	if v4-base > 5 {
		t.Errorf("a version 4.5 dialog allocates %.1f per pair of messages beyond nbformat's %.1f, want at most 5", v4-base, base)
	}
	if v3-base > 1 {
		t.Errorf("a version 3 dialog allocates %.1f per pair of messages beyond nbformat's %.1f, want at most 1", v3-base, base)
	}
}
