package convert_test

import (
	"runtime"
	"testing"

	"github.com/nbdialog/ipynb/internal/nbtest"
	"github.com/nbdialog/ipynb/internal/testtier"
)

// Comparing the outputs of two reads of one output-heavy notebook (as a
// merge compares base's with each side's) compares texts and JSON data
// as read, without copies: it allocates (almost) nothing, where copying
// each text to compare it allocates 1.6 bytes per byte of file.
func TestSameOutputsDoNotCopy(t *testing.T) {
	if testtier.Race {
		t.Skip("the race detector's instrumentation allocates")
	}
	data := nbtest.Heavy{Cells: 200, Seed: 200, ImageLines: true}.Notebook()
	a, b := readDialog(data), readDialog(append([]byte{}, data...))
	if a == nil || b == nil {
		t.Fatal("not read")
	}
	same := func() int {
		n := 0
		for i, m := range a.Messages {
			for k, o := range m.Outputs {
				if o.Source().Same(b.Messages[i].Outputs[k].Source()) {
					n++
				}
			}
		}
		return n
	}
	all := same()
	runtime.GC()
	var before, after runtime.MemStats
	runtime.ReadMemStats(&before)
	if n := same(); n != all || n == 0 {
		t.Fatalf("%d outputs the same, then %d", all, n)
	}
	runtime.ReadMemStats(&after)
	perByte := float64(after.TotalAlloc-before.TotalAlloc) / float64(len(data))
	t.Logf("%d outputs compared, %d bytes of file: %.3f bytes allocated per byte", all, len(data), perByte)
	if perByte > 0.1 {
		t.Errorf("comparing outputs allocates %.3f bytes per byte of file (at most 0.1)", perByte)
	}
}
