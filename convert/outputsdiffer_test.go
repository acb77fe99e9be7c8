package convert

import (
	"testing"

	"github.com/nbdialog/ipynb/internal/jsonvalue"
)

// Differs is true only for outputs whose decoded forms differ, and
// Output.Equal, which asks it, answers as comparing the decoded forms
// does: for every pair of streams of a notebook whose streams split one
// text otherwise, have other names, texts, or extra members.
func TestDiffersOnlyWhereDecodedDiffer(t *testing.T) {
	nb := `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "id": "c", "metadata": {}, "execution_count": 1, "source": "", "outputs": [
 {"output_type": "stream", "name": "stdout", "text": "a\nb\n"},
 {"output_type": "stream", "name": "stdout", "text": ["a\n", "b\n"]},
 {"output_type": "stream", "name": "stdout", "text": ["a", "\nb", "\n"]},
 {"output_type": "stream", "name": "stdout", "text": ["\u0061\n", "b\u000a"]},
 {"output_type": "stream", "name": "stderr", "text": ["a\n", "b\n"]},
 {"output_type": "stream", "name": "stdout", "text": ["a\n", "c\n"]},
 {"output_type": "stream", "name": "stdout", "text": ["a\n", "b\n", ""]},
 {"output_type": "stream", "name": "stdout", "text": ["a\n", "b"]},
 {"output_type": "stream", "name": "stdout", "text": ["a\n", "b\n"], "extra": 1},
 {"output_type": "stream", "name": "stdout", "text": ["a\n", "b\n"], "extra": 1.0},
 {"output_type": "stream", "name": "stdout", "text": []},
 {"output_type": "stream", "name": "stdout", "text": ""},
 {"output_type": "display_data", "metadata": {}, "data": {"text/plain": "a\nb\n"}}
]}]}`
	f, err := Unmarshal([]byte(nb), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	outs := f.Dialog.Messages[0].Outputs
	pairs := 0
	for i, a := range outs {
		for j, b := range outs {
			x, err1 := a.Source().Decode()
			y, err2 := b.Source().Decode()
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			want := jsonvalue.EqualObjects(x, y)
			if d := a.Source().(*readOutput).Differs(b.Source()); d && want {
				t.Errorf("outputs %d and %d decode equal, but Differs says they differ", i, j)
			}
			if got := a.Equal(b); got != want {
				t.Errorf("outputs %d and %d: Equal %v, decoded equal %v", i, j, got, want)
			}
			pairs++
		}
	}
	if pairs != len(outs)*len(outs) || len(outs) != 13 {
		t.Fatalf("%d outputs read", len(outs))
	}
}
