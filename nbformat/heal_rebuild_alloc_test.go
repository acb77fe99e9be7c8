package nbformat_test

// Tests that Heal rebuilds large outputs of unknown types without growing
// buffers by copying.

import (
	"fmt"
	"runtime"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// unknownOutputsNotebook is an nbformat 4.5 notebook of n code cells, each
// with one output of an unrecognized type holding an HTML table of about
// size bytes, as .NET Interactive wrote them: Heal rebuilds every output
// as display_data.
func unknownOutputsNotebook(n, size int) []byte {
	var b strings.Builder
	b.WriteString("{\n \"cells\": [\n")
	row := `<tr><td>\"cell\"</td><td>é 42</td></tr>\n`
	for i := range n {
		if i > 0 {
			b.WriteString(",\n")
		}
		fmt.Fprintf(&b, `  {"cell_type": "code", "execution_count": %d, "id": "c%d", "metadata": {}, "outputs": [`, i+1, i)
		fmt.Fprintf(&b, `{"output_type": "unknown", "data": {"text/html": "<table>%s</table>"}}`, strings.Repeat(row, size/len(row)+1))
		fmt.Fprintf(&b, `], "source": ["x = %d"]}`, i)
	}
	b.WriteString("\n ],\n \"metadata\": {},\n \"nbformat\": 4,\n \"nbformat_minor\": 5\n}\n")
	return []byte(b.String())
}

func heapAllocated(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// Heal rebuilds an output of an unrecognized type as the JSON of the
// output it resembles, in a buffer of that size, and decodes all it
// rebuilt from one document made at its size: no buffer grows by copying
// the large values it holds. Healing a notebook of large such outputs
// allocates at most 3.8 bytes per byte of file (the rebuilt JSON, the
// notebook written and parsed to check it: 3.16 to 3.25 measured). The
// rebuilt outputs' texts are written by copying their tokens, already
// spelled as the file spells strings (see quoted.go); decoding and
// escaping them again made it 5.3 to 5.5, and growing the buffers 6.0 for
// 2 outputs of 400 KB, 8.4 for 8 of 100 KB.
func TestHealRebuildsLargeOutputsOnce(t *testing.T) {
	if testtier.Race {
		t.Skip("the race detector's instrumentation allocates")
	}
	for _, shape := range []struct{ n, size int }{{2, 400_000}, {8, 100_000}} {
		data := unknownOutputsNotebook(shape.n, shape.size)
		nb, err := nbformat.Unmarshal(data)
		if err != nil {
			t.Fatal(err)
		}
		if nbformat.Validate(nb) == nil {
			t.Fatal("valid")
		}
		var repairs []nbformat.Repair
		got := heapAllocated(func() {
			if repairs, err = nbformat.Heal(nb); err != nil {
				t.Error(err)
			}
		})
		if len(repairs) != shape.n {
			t.Errorf("%d cells: %d repairs: %v", shape.n, len(repairs), repairs)
		}
		if err := nbformat.Validate(nb); err != nil {
			t.Fatal(err)
		}
		perByte := float64(got) / float64(len(data))
		t.Logf("%d cells, %d bytes: Heal allocates %.2f bytes per byte", shape.n, len(data), perByte)
		if perByte > 3.8 {
			t.Errorf("%d cells: Heal allocates %.2f bytes per byte of file, want at most 3.8", shape.n, perByte)
		}
	}
}
