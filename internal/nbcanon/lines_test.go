package nbcanon

import (
	"encoding/json"
	"runtime"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/jsontree"
)

// joinedLines writes what lines(joinAll(pieces)) writes, on lazy and
// recorded arrays alike, pieces broken anywhere (across "\r\n" too).
func TestJoinedLines(t *testing.T) {
	pieces := []string{"a", "b\n", "\r", "\n", "c\r", "", "d\u2028e", "\u0085", "\v", "f\r\n", "g", "\r", "h\u2029", "\f\x1c"}
	for start := 0; start < len(pieces); start++ {
		for end := start; end <= len(pieces); end++ {
			ps := pieces[start:end]
			raw, _ := json.Marshal(ps)
			want := canon{}
			want.lines(joinAll(ps), " ")
			for _, flat := range []bool{false, true} {
				var tp *jsontree.Tape
				var err error
				if flat {
					tp, err = jsontree.ParseShaped(raw, jsontree.Limits{}, &jsontree.Shape{Flat: true})
				} else {
					tp, err = jsontree.Parse(raw, jsontree.Limits{})
				}
				if err != nil {
					t.Fatal(err)
				}
				w := canon{t: tp}
				f, ok := w.joinedLines(jsontree.Root)
				if !ok {
					t.Fatalf("%q: not lines", ps)
				}
				f(" ")
				if string(w.buf) != string(want.buf) {
					t.Errorf("%q (lazy %v): %q, want %q", ps, tp.Lazy(jsontree.Root), w.buf, want.buf)
				}
			}
		}
	}
	// One long line in many pieces is not rescanned per piece.
	size := func(n int) uint64 {
		raw, _ := json.Marshal(strings.Split(strings.Repeat("x", n), ""))
		tp, _ := jsontree.ParseShaped(raw, jsontree.Limits{}, &jsontree.Shape{Flat: true})
		var a, b runtime.MemStats
		runtime.GC()
		runtime.ReadMemStats(&a)
		w := canon{t: tp}
		f, _ := w.joinedLines(jsontree.Root)
		f("")
		runtime.ReadMemStats(&b)
		return b.TotalAlloc - a.TotalAlloc
	}
	small, large := size(1<<16), size(1<<18)
	if float64(large)/float64(small) > 6 {
		t.Errorf("a line of 4 times the pieces allocated %.1f times as much", float64(large)/float64(small))
	}
}
