package jsontree

import (
	"encoding/json"
	"os"
	"path/filepath"
	"testing"
	"time"
)

func TestQuickCorpus(t *testing.T) {
	n := 0
	filepath.Walk("/work/shared/corpus", func(p string, info os.FileInfo, err error) error {
		if filepath.Ext(p) != ".ipynb" {
			return nil
		}
		b, _ := os.ReadFile(p)
		_, err = Parse(b, Limits{})
		if (err == nil) != json.Valid(b) {
			t.Errorf("%s: %v valid=%v", p, err, json.Valid(b))
		}
		n++
		return nil
	})
	b, _ := os.ReadFile("/work/shared/bench/big-real.ipynb")
	st := time.Now()
	for i := 0; i < 10; i++ {
		Parse(b, Limits{})
	}
	d := time.Since(st) / 10
	st = time.Now()
	for i := 0; i < 10; i++ {
		json.Valid(b)
	}
	d2 := time.Since(st) / 10
	t.Logf("%d files; parse %v valid %v", n, d, d2)
}
