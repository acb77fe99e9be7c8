package main

import (
	"fmt"
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// strip is linear: the values it visits grow in proportion to the input,
// for many cells, for one object with many members to remove (duplicated
// keys included), and for many duplicated outputs (operation counts at
// doubling sizes, not time).
func TestStripScales(t *testing.T) {
	t.Parallel()
	shapes := map[string]func(n int) string{
		"cells": func(n int) string {
			var b strings.Builder
			b.WriteString(`{"cells": [`)
			for i := range n {
				if i > 0 {
					b.WriteString(",\n")
				}
				fmt.Fprintf(&b, `{"cell_type": "code", "execution_count": %d, "metadata": {"collapsed": true, "trusted": true, "tags": ["a", "b"], "x": %d}, "outputs": [{"output_type": "execute_result", "execution_count": %d, "data": {"text/plain": "%d"}, "metadata": {}}], "source": "%d"}`, i, i, i, i, i)
			}
			b.WriteString(`], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`)
			return b.String()
		},
		"wide-metadata": func(n int) string {
			var b strings.Builder
			b.WriteString(`{"cells": [{"cell_type": "code", "metadata": {`)
			for i := range n {
				fmt.Fprintf(&b, `"collapsed": %d, "k%d": 1, "scrolled": true, `, i, i)
			}
			b.WriteString(`"last": 0}, "outputs": [], "source": ""}], "metadata": {`)
			for i := range n {
				fmt.Fprintf(&b, `"signature": "%d", `, i)
			}
			b.WriteString(`"widgets": {}}, "nbformat": 4, "nbformat_minor": 4}`)
			return b.String()
		},
		"duplicate-outputs": func(n int) string {
			var b strings.Builder
			b.WriteString(`{"cells": [{"cell_type": "code", "metadata": {}, "source": ""`)
			for i := range n {
				fmt.Fprintf(&b, `, "outputs": [{"text": "%d"}], "execution_count": %d`, i, i)
			}
			b.WriteString(`}], "metadata": {}, "nbformat": 4, "nbformat_minor": 4}`)
			return b.String()
		},
	}
	for name, gen := range shapes {
		t.Run(name, func(t *testing.T) {
			prev := 0
			for n := 1000; n <= 16000; n *= 2 {
				s := &stripper{opt: stripOptions{keys: strippedKeys}}
				out, _, err := s.strip([]byte(gen(n)))
				if err != nil {
					t.Fatal(err)
				}
				if left, err := leftovers(out, checkRules{}); err != nil || len(left) > 0 {
					t.Fatalf("n=%d: left %d, %v", n, len(left), err)
				}
				if prev > 0 {
					if ratio := float64(s.steps) / float64(prev); ratio > 2.2 {
						t.Errorf("n=%d: %d steps, %.2f× those at n/2: not linear", n, s.steps, ratio)
					}
				}
				t.Logf("n=%d: %d steps", n, s.steps)
				prev = s.steps
			}
		})
	}
}

// BenchmarkStrip is the work of 'ipynb strip FILE' without the write, over
// testdata/*.ipynb and the files in IPYNB_BENCH_FILES.
func BenchmarkStrip(b *testing.B) {
	paths, _ := filepath.Glob(filepath.Join(shipped, "*.ipynb"))
	if env := os.Getenv("IPYNB_BENCH_FILES"); env != "" {
		paths = append(paths, filepath.SplitList(env)...)
	}
	for _, p := range paths {
		data, err := os.ReadFile(p)
		if err != nil {
			b.Fatal(err)
		}
		b.Run(strings.TrimSuffix(filepath.Base(p), ".ipynb"), func(b *testing.B) {
			b.SetBytes(int64(len(data)))
			b.ReportAllocs()
			for b.Loop() {
				if _, _, err := stripNotebook(data, stripOptions{keys: strippedKeys}); err != nil {
					b.Fatal(err)
				}
			}
		})
	}
}
