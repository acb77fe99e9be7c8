package nbformat

import (
	"testing"

	"github.com/google/go-cmp/cmp"
)

// Upgrade changes the worksheets it decodes from the file in place, but
// never generic worksheets a caller put into AdditionalProperties: those
// are copied before their cells are upgraded.
func TestUpgradeV3LeavesCallersWorksheets(t *testing.T) {
	t.Parallel()
	const v3 = `{"nbformat": 3, "nbformat_minor": 0, "metadata": {"name": "n"}, "worksheets": [{"cells": [
 {"cell_type": "code", "input": ["x = 1\n", "x"], "language": "python", "collapsed": false, "prompt_number": 1,
  "outputs": [{"output_type": "pyout", "prompt_number": 1, "text": ["1"], "metadata": {}}], "metadata": {}},
 {"cell_type": "heading", "level": 2, "source": ["Title"], "metadata": {}}], "metadata": {}}]}`
	nb, err := Unmarshal([]byte(v3))
	if err != nil {
		t.Fatal(err)
	}
	fromFile, err := Unmarshal([]byte(v3))
	if err != nil {
		t.Fatal(err)
	}
	ws, err := Decode([]byte(v3))
	if err != nil {
		t.Fatal(err)
	}
	mine := ws.(map[string]any)["worksheets"]
	before, _ := Decode([]byte(v3))
	nb.AdditionalProperties["worksheets"] = mine
	if err := Upgrade(nb); err != nil {
		t.Fatal(err)
	}
	if d := cmp.Diff(before.(map[string]any)["worksheets"], mine); d != "" {
		t.Errorf("Upgrade changed the caller's worksheets (-before +after):\n%s", d)
	}
	if err := Upgrade(fromFile); err != nil {
		t.Fatal(err)
	}
	a, _ := Marshal(nb)
	b, _ := Marshal(fromFile)
	if string(a) != string(b) {
		t.Errorf("generic worksheets and worksheets read upgrade differently:\n%s\n%s", a, b)
	}
}
