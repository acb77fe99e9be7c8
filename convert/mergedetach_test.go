package convert_test

// MergeTo keeps nothing of base's bytes past the call: the conflicts' base versions are copies, without outputs.

import (
	"bytes"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/testtier"
)

// Both sides re-ran the cell: its outputs conflict, and the conflict's
// base version holds base's metadata, not its outputs (see MergeTo).
// Once MergeTo returns, base's bytes are collected while the conflicts
// are kept (a string of a value read shares the bytes it was read from:
// the base version must hold copies). A base of 1 MiB and more is read
// twice (see MergeTo): both reads are checked.
func TestMergeToKeepsNoBaseBytes(t *testing.T) {
	if testtier.Race {
		t.Skip("the race detector's instrumentation keeps values")
	}
	nb := func(out, meta string) []byte {
		return []byte(`{"cells": [{"cell_type": "code", "execution_count": 1, "id": "c1", "metadata": {"tag": "` + meta + `"}, "outputs": [` +
			`{"name": "stdout", "output_type": "stream", "text": ["` + out + `\n"]}, ` +
			`{"data": {"text/plain": ["` + out + `"]}, "metadata": {"note": "` + out + `"}, "output_type": "display_data"}], "source": ["print(1)"]}], ` +
			`"metadata": {"kernelspec": {"name": "python3"}}, "nbformat": 4, "nbformat_minor": 5}` + "\n")
	}
	for _, size := range []int{100, 1 << 20} {
		pad := strings.Repeat("b", size)
		ours, theirs := nb("ours "+pad, "m"), nb("theirs "+pad, "m")
		var freed []chan struct{}
		read := func(input string) ([]byte, error) {
			switch input {
			case "ours":
				return ours, nil
			case "theirs":
				return theirs, nil
			}
			base := nb("base "+pad, "m")
			done := make(chan struct{})
			runtime.SetFinalizer(&base[0], func(*byte) { close(done) })
			freed = append(freed, done)
			return base, nil
		}
		var out bytes.Buffer
		conflicts, err := convert.MergeTo(&out, read, dialog.MergeOptions{})
		if err != nil {
			t.Fatal(err)
		}
		if len(conflicts) != 1 || conflicts[0].Base == nil || conflicts[0].Base.Outputs != nil || len(conflicts[0].Ours.Outputs) != 2 {
			t.Fatalf("size %d: conflicts %v, want one of outputs with a base version without outputs", size, conflicts)
		}
		for i, done := range freed {
			collected := false
			for try := 0; try < 50 && !collected; try++ {
				runtime.GC()
				select {
				case <-done:
					collected = true
				case <-time.After(10 * time.Millisecond):
				}
			}
			if !collected {
				t.Errorf("size %d: base read %d is still in memory after MergeTo, beside its conflicts", size, i+1)
			}
		}
		if tag := conflicts[0].Base.Meta["tag"]; tag != "m" {
			t.Errorf("size %d: base version's metadata tag %v, want m", size, tag)
		}
		if !bytes.Contains(out.Bytes(), []byte(`"ours `)) || !bytes.Contains(out.Bytes(), []byte(`"theirs `)) {
			t.Errorf("size %d: the merge does not hold both sides' outputs", size)
		}
		runtime.KeepAlive(conflicts)
	}
}
