package nbformat

// The version 3 upgrade read from the notebook's own parse, against the
// worksheets parsed anew.

import (
	"bytes"
	"encoding/json"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/jsontree"
	"github.com/nbdialog/ipynb/internal/nbv3"
)

// TestV3UpgradeFromTheParseRead: for the corpus's version 2 and 3
// notebooks (the tier's sample), the worksheets as read are recorded
// whole, and the cells written from that parse are those written from a
// parse of the worksheets' bytes alone; worksheets set in memory, or read
// with a deeper nesting limit, are parsed anew.
func TestV3UpgradeFromTheParseRead(t *testing.T) {
	t.Parallel()
	lim := jsontree.Limits{MaxDepth: defaultMaxDepth}
	n := 0
	for _, data := range corpus.Sample(t) {
		nb, err := Unmarshal(data)
		if err != nil || nb.Nbformat != 2 && nb.Nbformat != 3 {
			continue
		}
		ws, ok := nb.AdditionalProperties["worksheets"].(json.RawMessage)
		if !ok {
			continue
		}
		n++
		tp, w := nb.worksheetsRead(ws)
		if tp == nil {
			t.Fatalf("worksheets of a version %d notebook read: not taken from the parse", nb.Nbformat)
		}
		got, err := nbv3.AppendCells(nil, tp, w, nb.Nbformat == 2, lim)
		want, werr := nbv3.Cells(ws, nb.Nbformat == 2, lim)
		if (err == nil) != (werr == nil) || !bytes.Equal(got, want) {
			t.Fatalf("from the parse read: %.200s (%v)\nparsed anew: %.200s (%v)", got, err, want, werr)
		}
		if tp, _ := nb.worksheetsRead(bytes.Clone(ws)); tp != nil {
			t.Fatal("a copy of the worksheets taken for those read")
		}
		deep, err := UnmarshalOptions{MaxDepth: 2 * defaultMaxDepth}.Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		if tp, _ := deep.worksheetsRead(deep.AdditionalProperties["worksheets"].(json.RawMessage)); tp != nil {
			t.Fatal("worksheets read with a deeper limit taken from the parse")
		}
	}
	if n == 0 {
		t.Skip("no version 3 notebook in the sample")
	}
}
