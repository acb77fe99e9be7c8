package convert_test

import (
	"testing"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/nbformat"
)

// A version 3 side that git's line merge cut (read back from its markers
// by fix: a cell's members in its worksheet) is no valid notebook, and
// nothing tells whose cell the members were: the merge is refused, not
// written invalid with them in the worksheet.
func TestMergeV3CutSideRefused(t *testing.T) {
	t.Parallel()
	base := []byte(`{"metadata": {"name": "nb"}, "nbformat": 3, "nbformat_minor": 0, "worksheets": [{"cells": [
 {"cell_type": "code", "collapsed": false, "input": ["x = 1"], "language": "python", "metadata": {}, "outputs": [], "prompt_number": 2}],
 "metadata": {}}]}`)
	ours := []byte(`{"metadata": {"name": "nb"}, "nbformat": 3, "nbformat_minor": 0, "worksheets": [{
 "cell_type": "raw", "metadata": {}, "source": ["x = 1"]}]}`)
	res, err := merge(base, ours, base, dialog.MergeOptions{})
	if err == nil {
		nb, uerr := nbformat.Unmarshal(res.Data)
		if uerr == nil {
			uerr = nbformat.Validate(nb)
		}
		if uerr != nil {
			t.Fatalf("merged into an invalid notebook (%v):\n%s", uerr, res.Data)
		}
	}
}
