package convert_test

import (
	"testing"

	"github.com/nbdialog/ipynb/dialog"
)

// A version 3 notebook's name and signature, which the upgrade the merge
// works on drops, are merged too: theirs removing or changing one while
// ours left it is theirs' change, not lost under ours' metadata.
func TestMergeV3NameAndSignature(t *testing.T) {
	t.Parallel()
	nb := func(meta string) []byte {
		return []byte(`{"metadata": ` + meta + `, "nbformat": 3, "nbformat_minor": 0, "worksheets": [{"cells": [{"cell_type": "markdown", "metadata": {}, "source": "x"}], "metadata": {}}]}`)
	}
	base := nb(`{"name": "a", "signature": "sha256:00"}`)
	for _, c := range []struct{ theirs, want string }{
		{`{"name": "a"}`, `{"name":"a"}`},
		{`{"name": "a", "signature": "sha256:11"}`, `{"name":"a","signature":"sha256:11"}`},
		{`{"name": "b", "signature": "sha256:00"}`, `{"name":"b","signature":"sha256:00"}`},
		{`{"signature": "sha256:00"}`, `{"signature":"sha256:00"}`},
	} {
		ours := append([]byte(nil), base...)
		ours = append(ours, '\n') // (not base's very bytes)
		res, err := merge(base, ours, nb(c.theirs), dialog.MergeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		got := decodeJSON(t, res.Data)["metadata"].(map[string]any)
		want := decodeJSON(t, []byte(c.want))
		_, hasName := got["name"]
		_, wantsName := want["name"]
		if len(got) != len(want) || hasName != wantsName || got["name"] != want["name"] || got["signature"] != want["signature"] {
			t.Errorf("theirs %s: merged metadata %v, want %s", c.theirs, got, c.want)
		}
	}
}
