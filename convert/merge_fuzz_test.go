package convert_test

// A fuzz test of Merge on random edit sets: one-sided merges give that side
// byte for byte, and merges agree when the sides are swapped.

import (
	"bytes"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/nbformat"
)

// FuzzMerge makes two random edit sets of a test notebook (each op byte
// pair an editAt) and checks: merge(base, x, base) is x byte for byte;
// merge(base, base, y) is y byte for byte; merge(base, x, y) and
// merge(base, y, x) agree up to the side labels (the same conflicts, the
// same messages away from conflicts); every result is a valid notebook.
func FuzzMerge(f *testing.F) {
	files, _ := filepath.Glob(filepath.Join("..", "testdata", "*.ipynb"))
	slices.Sort(files)
	var bases [][]byte
	for _, p := range files {
		data, err := os.ReadFile(p)
		if err != nil {
			f.Fatal(err)
		}
		if nb, err := nbformat.Unmarshal(data); err != nil || nbformat.Validate(nb) != nil {
			continue
		}
		if _, err := convert.Unmarshal(data, convert.ReadOptions{}); err == nil {
			bases = append(bases, data)
		}
	}
	if len(bases) == 0 {
		f.Skip("no test notebooks")
	}
	for i := range bases {
		f.Add(uint8(i), []byte{0, 1}, []byte{1, 200})
		f.Add(uint8(i), []byte{2, 0, 3, 5}, []byte{4, 1, 6, 2})
		f.Add(uint8(i), []byte{1, 3}, []byte{1, 3})
	}
	f.Fuzz(func(t *testing.T, which uint8, opsX, opsY []byte) {
		if len(opsX) > 16 || len(opsY) > 16 {
			return
		}
		base := bases[int(which)%len(bases)]
		x := edited(t, base, func(d *dialog.Dialog) { applyOps(d, opsX, "x") })
		y := edited(t, base, func(d *dialog.Dialog) { applyOps(d, opsY, "y") })
		mergeValid := func(b, o, th []byte, opt dialog.MergeOptions) *mergeResult {
			res, err := merge(b, o, th, opt)
			if err != nil {
				t.Fatal(err)
			}
			nb, err := nbformat.Unmarshal(res.Data)
			if err != nil {
				t.Fatal(err)
			}
			if err := nbformat.Validate(nb); err != nil {
				t.Fatalf("merged notebook invalid: %v", err)
			}
			return res
		}
		if res := mergeValid(base, x, base, dialog.MergeOptions{}); len(res.Conflicts) > 0 || !bytes.Equal(res.Data, x) {
			t.Fatalf("mergeValid(base, x, base) != x: %v %s", res.Conflicts, firstDiff(x, res.Data))
		}
		if res := mergeValid(base, base, y, dialog.MergeOptions{}); len(res.Conflicts) > 0 || !bytes.Equal(res.Data, y) {
			t.Fatalf("mergeValid(base, base, y) != y: %v %s", res.Conflicts, firstDiff(y, res.Data))
		}
		xy := mergeValid(base, x, y, dialog.MergeOptions{OursLabel: "X", TheirsLabel: "Y"})
		yx := mergeValid(base, y, x, dialog.MergeOptions{OursLabel: "Y", TheirsLabel: "X"})
		if a, b := conflictKinds(xy.Conflicts), conflictKinds(yx.Conflicts); !slices.Equal(a, b) {
			t.Fatalf("conflicts differ with the sides swapped: %q vs %q", a, b)
		}
		if a, b := settled(t, xy.Data), settled(t, yx.Data); !slices.Equal(a, b) {
			t.Fatalf("messages differ with the sides swapped:\n%q\n%q", a, b)
		}
	})
}

// applyOps applies editAt for each pair of bytes (op, position).
func applyOps(d *dialog.Dialog, ops []byte, tag string) {
	for i := 0; i+1 < len(ops); i += 2 {
		editAt(d, int(ops[i]), int(ops[i+1]), tag)
	}
}

// conflictKinds lists the conflicts' parts, with the sides' names
// normalized, sorted.
func conflictKinds(cs []dialog.Conflict) []string {
	var out []string
	for _, c := range cs {
		w := strings.NewReplacer("by ours", "by a side", "by theirs", "by a side").Replace(c.What)
		out = append(out, w)
	}
	slices.Sort(out)
	return out
}

// settled lists the kinds and contents of the messages of a merged
// notebook that carry no conflict markers and are none (the raw marker
// messages around messages both sides put in one place), sorted
// (messages both sides inserted at one place come in side order).
func settled(t *testing.T, data []byte) []string {
	d, err := convert.Unmarshal(data, convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	var out []string
	for _, m := range d.Messages {
		if strings.Contains(m.Content, "<<<<<<< ") || strings.Contains(m.Reply(), "<<<<<<< ") {
			continue
		}
		if m.Kind == dialog.Raw && (m.Content == "=======" || strings.HasPrefix(m.Content, ">>>>>>> ")) {
			continue
		}
		out = append(out, string(m.Kind)+":"+m.Content)
	}
	slices.Sort(out)
	return out
}
