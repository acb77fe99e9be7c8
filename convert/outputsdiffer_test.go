package convert

import (
	"strings"
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

// Same and Differs of display data and execute results answer as
// comparing the decoded forms does (Same only of equal ones, Differs
// only of different ones), over data split into other lines, escaped,
// re-spaced or with keys in another order (equal as JSON values: issue
// 21 item 2), other data, metadata, counts and extra members; and
// Differs is sure of every pair whose texts or images differ, so that
// Output.Equal decodes neither.
func TestBundlesCompareAsDecoded(t *testing.T) {
	outs := []string{
		`{"output_type": "display_data", "metadata": {}, "data": {"text/plain": "a\nb\n", "image/png": "iVBO\n"}}`,
		`{"output_type": "display_data", "metadata": {}, "data": {"image/png": ["iVBO\n"], "text/plain": ["a\n", "b\n"]}}`,
		`{"output_type": "display_data", "metadata": {}, "data": {"text/plain": ["\u0061\n", "b\u000a"], "image/png": ["iV", "BO\n"]}}`,
		`{"output_type": "display_data", "metadata": {}, "data": {"text/plain": "a\nb\n", "image/png": "iVBX\n"}}`,
		`{"output_type": "display_data", "metadata": {}, "data": {"text/plain": "a\nc\n", "image/png": "iVBO\n"}}`,
		`{"output_type": "display_data", "metadata": {}, "data": {"text/plain": "a\nb\n"}}`,
		`{"output_type": "display_data", "metadata": {"x": 1}, "data": {"text/plain": "a\nb\n", "image/png": "iVBO\n"}}`,
		`{"output_type": "display_data", "metadata": {}, "data": {"text/plain": "a\nb\n", "image/png": "iVBO\n"}, "extra": [1]}`,
		`{"output_type": "display_data", "metadata": {}, "data": {"text/plain": "a\nb\n", "application/json": {"k": [1, 2], "j": "s"}}}`,
		`{"output_type": "display_data", "metadata": {}, "data": {"text/plain": "a\nb\n", "application/json": {"j": "\u0073",  "k": [1.0, 2]}}}`,
		`{"output_type": "display_data", "metadata": {}, "data": {"text/plain": "a\nb\n", "application/json": {"k": [1, 3], "j": "s"}}}`,
		`{"output_type": "display_data", "metadata": {}, "data": {"text/plain": "a\nb\n", "application/json": "a\nb\n"}}`,
		`{"output_type": "display_data", "metadata": {}, "data": {"text/plain": "a\nb\n", "application/json": ["a\n", "b\n"]}}`,
		`{"output_type": "display_data", "metadata": {}, "data": {"text/plain": "a\nb\n", "application/vnd.x+json": 1}}`,
		`{"output_type": "display_data", "metadata": {}, "data": {"text/plain": "a\nb\n", "application/vnd.x+json": 1.0}}`,
		`{"output_type": "display_data", "metadata": {}, "data": {"text/plain": "a\nb\n", "text/x": 1}}`,
		`{"output_type": "display_data", "metadata": {}, "data": {"text/plain": "a\nb\n", "text/x": "1"}}`,
		`{"output_type": "display_data", "metadata": {}, "data": {"text/plain": "a\nb\n", "text/x": ["1", 2]}}`,
		`{"output_type": "execute_result", "execution_count": 1, "metadata": {}, "data": {"text/plain": "a\nb\n", "image/png": "iVBO\n"}}`,
		`{"output_type": "execute_result", "execution_count": 1, "metadata": {}, "data": {"text/plain": ["a\n", "b\n"], "image/png": "iVBO\n"}}`,
		`{"output_type": "execute_result", "execution_count": 2, "metadata": {}, "data": {"text/plain": "a\nb\n", "image/png": "iVBO\n"}}`,
		`{"output_type": "execute_result", "execution_count": 1, "metadata": {}, "data": {"text/plain": "a\nb\n", "image/png": "iVBY\n"}}`,
		`{"output_type": "execute_result", "execution_count": null, "metadata": {}, "data": {"text/plain": "a\nb\n", "image/png": "iVBO\n"}}`,
	}
	nb := `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "id": "c", "metadata": {}, "execution_count": 1, "source": "", "outputs": [` +
		strings.Join(outs, ",\n") + `]}]}`
	f, err := Unmarshal([]byte(nb), ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	read := f.Dialog.Messages[0].Outputs
	if len(read) != len(outs) {
		t.Fatalf("%d outputs read, want %d", len(read), len(outs))
	}
	sure := 0
	for i, a := range read {
		for j, b := range read {
			x, err1 := a.Source().Decode()
			y, err2 := b.Source().Decode()
			if err1 != nil || err2 != nil {
				t.Fatal(err1, err2)
			}
			want := jsonvalue.EqualObjects(x, y)
			d := a.Source().(*readOutput).Differs(b.Source())
			if d && want {
				t.Errorf("outputs %d and %d decode equal, but Differs says they differ", i, j)
			}
			if s := a.Source().Same(b.Source()); s && !want {
				t.Errorf("outputs %d and %d decode different, but Same says they are equal", i, j)
			}
			if got := a.Equal(b); got != want {
				t.Errorf("outputs %d and %d: Equal %v, decoded equal %v", i, j, got, want)
			}
			if d {
				sure++
			}
			// A re-run's outputs: other text or image data, of one type.
			rerun := (i == 0 && (j == 3 || j == 4)) || (i == 18 && j == 21) || (i == 19 && j == 21)
			if rerun && !d {
				t.Errorf("outputs %d and %d: Differs is not sure they differ", i, j)
			}
		}
	}
	t.Logf("Differs sure of %d pairs of %d", sure, len(read)*len(read))
}
