package nbformat_test

// Helpers of the external tests: Python nbformat, reference scripts and small
// conversions.

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strconv"
	"testing"

	"github.com/nbdialog/ipynb/internal/nbtest"
)

var (
	firstDiff  = nbtest.FirstDiff
	resolves   = nbtest.Resolves
	resolvesIn = nbtest.ResolvesIn
	cellSpan   = nbtest.CellSpan
)

func itoa(i int) string { return strconv.Itoa(i) }

// pythonNbformat returns Debian's python3 with nbformat, or skips t.
func pythonNbformat(t testing.TB) string {
	t.Helper()
	py := nbtest.NbformatPython()
	if py != "/usr/bin/python3" {
		t.Skip("Python nbformat not available (apt-get install python3-nbformat)")
	}
	return py
}

// referenceScript returns the path of a script in scripts/reference.
func referenceScript(t testing.TB, name string) string {
	t.Helper()
	p, err := filepath.Abs(filepath.Join("..", "scripts", "reference", name))
	if err != nil {
		t.Fatal(err)
	}
	return p
}

func writeFile(path, content string) error { return os.WriteFile(path, []byte(content), 0o644) }

func jsonNumber(s string) json.Number { return json.Number(s) }
