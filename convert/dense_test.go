package convert_test

// Tests that the dialog round trip of notebooks dense in small values allocates
// a small multiple of the file at every size.

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/nbformat"
)

// denseNotebook returns a notebook whose bulk is n small values
// ({"x":[0,0,…]}) in the notebook metadata, a cell's metadata or JSON
// output data (as internal/cmd/benchgen -dense writes them).
func denseNotebook(where string, n int) []byte {
	value := `{"x":[` + strings.TrimSuffix(strings.Repeat("0,", n), ",") + `]}`
	nbMeta, cellMeta, data := "{}", "{}", `{"text/plain":"0"}`
	switch where {
	case "cell":
		cellMeta = value
	case "output":
		data = `{"application/json":` + value + `,"text/plain":"0"}`
	default:
		nbMeta = value
	}
	return []byte(`{"cells":[{"cell_type":"code","execution_count":1,"id":"c1","metadata":` + cellMeta +
		`,"outputs":[{"data":` + data + `,"execution_count":1,"metadata":{},"output_type":"execute_result"}],"source":"x"}],` +
		`"metadata":` + nbMeta + `,"nbformat":4,"nbformat_minor":5}` + "\n")
}

func allocatedBytes(f func()) uint64 {
	var a, b runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&a)
	f()
	runtime.ReadMemStats(&b)
	return b.TotalAlloc - a.TotalAlloc
}

// The dialog round trip (what ipynb check and show do) on notebooks dense
// in small values allocates a small multiple of the file at every size:
// metadata and JSON output data stay json.RawMessage through the dialog.
// Before, a 2-byte value cost a 28-byte tape node and a 16-byte interface,
// twice (the notebook and its dialog).
func TestDenseDialogScale(t *testing.T) {
	if _, err := convert.Unmarshal(denseNotebook("meta", 1), convert.ReadOptions{}); err != nil { // warm up
		t.Fatal(err)
	}
	for _, where := range []string{"meta", "cell", "output"} {
		var prev uint64
		for _, n := range []int{1 << 17, 1 << 18, 1 << 19} {
			data := denseNotebook(where, n)
			var out []byte
			var err error
			var kept any
			var keptOut dialog.Output
			b := allocatedBytes(func() {
				d, e := convert.Unmarshal(data, convert.ReadOptions{})
				if err = e; err != nil {
					return
				}
				out, err = convert.Marshal(d, convert.WriteOptions{})
				kept = d.Meta["x"]
				if where == "cell" {
					kept = d.Messages[0].Meta["x"]
				}
				if where == "output" {
					keptOut = d.Messages[0].Outputs[0] // looked inside below, unmeasured
				}
			})
			if err != nil {
				t.Fatal(err)
			}
			if where == "output" {
				g, err := keptOut.Map()
				if err != nil {
					t.Fatal(err)
				}
				kept = g["data"].(map[string]any)["application/json"]
			}
			if string(out) != string(data) {
				t.Fatalf("%s, %d values: the dialog round trip changed the notebook", where, n)
			}
			if _, ok := kept.(json.RawMessage); !ok {
				t.Errorf("%s: the dense value is a %T, not json.RawMessage", where, kept)
			}
			size := uint64(len(data))
			t.Logf("%s, %d values: %.2f bytes allocated per byte", where, n, float64(b)/float64(size))
			if b > 4*size+1<<20 {
				t.Errorf("%s, %d values: the dialog round trip allocated %d bytes for a %d-byte file", where, n, b, size)
			}
			if prev > 0 && float64(b)/float64(prev) > 2.6 {
				t.Errorf("%s, %d values: doubling the size multiplied allocations by %.2f", where, n, float64(b)/float64(prev))
			}
			prev = b
		}
	}
	// An edited dialog: the dense value is written back as it was.
	data := denseNotebook("cell", 1000)
	d, err := convert.Unmarshal(data, convert.ReadOptions{})
	if err != nil {
		t.Fatal(err)
	}
	d.Messages[0].Content = "edited"
	out, err := convert.Marshal(d, convert.WriteOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if want := strings.Replace(string(data), `"source":"x"`, `"source":"edited"`, 1); string(out) != want {
		t.Errorf("edited dialog:\n%.300s\nwant\n%.300s", out, want)
	}
	if _, err := nbformat.Unmarshal(out); err != nil {
		t.Fatal(err)
	}
}
