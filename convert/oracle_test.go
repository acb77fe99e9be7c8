package convert_test

// The oracle: the seed's own implementation (aidialog and fastcore, in
// ../shared/reference/aidialog-oracle), run with Python 3.13 to produce the
// bytes the seed writes. Tests using it skip when either is absent.

import (
	"bytes"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
)

// oracleDir returns the oracle's folder, skipping t when it is absent.
func oracleDir(t testing.TB) string {
	t.Helper()
	s := corpus.Shared()
	if s == "" {
		t.Skip("../shared not present: no aidialog oracle")
	}
	dir := filepath.Join(s, "reference", "aidialog-oracle")
	if _, err := os.Stat(filepath.Join(dir, "aidialog", "ipynb.py")); err != nil {
		t.Skipf("aidialog oracle not present: %v", err)
	}
	return dir
}

// oraclePython returns Python 3.13 ($IPYNB_ORACLE_PYTHON, or pyenv's
// 3.13.0), skipping t when there is none.
func oraclePython(t testing.TB) string {
	t.Helper()
	oraclePythonOnce.Do(func() { oraclePythonPath = findOraclePython() })
	if oraclePythonPath == "" {
		t.Skip("Python 3.13 not found (pyenv's 3.13.0, or $IPYNB_ORACLE_PYTHON): no aidialog oracle")
	}
	return oraclePythonPath
}

var (
	oraclePythonOnce sync.Once
	oraclePythonPath string
)

// findOraclePython looks for the oracle's interpreter once a process:
// asking pyenv runs a shell script.
func findOraclePython() string {
	if p := os.Getenv("IPYNB_ORACLE_PYTHON"); p != "" {
		return p
	}
	var roots []string
	if out, err := exec.Command("pyenv", "root").Output(); err == nil {
		roots = append(roots, strings.TrimSpace(string(out)))
	}
	if r := os.Getenv("PYENV_ROOT"); r != "" {
		roots = append(roots, r)
	}
	if h, err := os.UserHomeDir(); err == nil {
		roots = append(roots, filepath.Join(h, ".pyenv"))
	}
	for _, r := range roots {
		p := filepath.Join(r, "versions", "3.13.0", "bin", "python3")
		if _, err := os.Stat(p); err == nil {
			return p
		}
	}
	return ""
}

// runOracle runs the Python program (a script file of the oracle's folder,
// or with "-c", code) with the oracle on the path and the given arguments,
// in a temporary folder, and returns its standard output.
func runOracle(t testing.TB, args ...string) []byte {
	t.Helper()
	dir, py := oracleDir(t), oraclePython(t)
	if !strings.HasPrefix(args[0], "-") {
		args[0] = filepath.Join(dir, args[0])
	}
	cmd := exec.Command(py, args...)
	cmd.Dir = t.TempDir()
	cmd.Env = append(os.Environ(), "PYTHONPATH="+dir, "PYTHONHASHSEED=0", "PYTHONDONTWRITEBYTECODE=1")
	var stderr bytes.Buffer
	cmd.Stderr = &stderr
	out, err := cmd.Output()
	if err != nil {
		t.Fatalf("oracle %s: %v\n%s", strings.Join(args, " "), err, stderr.Bytes())
	}
	return out
}

// oracleWrite runs Python code that builds a dialog `dlg` with the seed's
// module (aidialog.dialog and aidialog.ipynb imported, random seeded with
// 7) and returns what write_ipynb(dlg) writes.
func oracleWrite(t testing.TB, code string) []byte {
	t.Helper()
	prog := "import random, sys, json\nfrom aidialog.dialog import *\nfrom aidialog.ipynb import *\nrandom.seed(7)\n" +
		code + "\nsys.stdout.buffer.write(write_ipynb(dlg).encode('utf-8'))\n"
	return runOracle(t, "-c", prog)
}
