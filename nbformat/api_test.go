package nbformat_test

import (
	"os"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/nbtest"
)

// The exported API is exactly testdata/api.txt. Helpers only the module
// needs live in internal/ (nbimpl, nbgeneric, lines, mimetype, cellid).
func TestAPI(t *testing.T) { nbtest.CheckAPI(t, ".", "testdata/api.txt") }

// The surface stays small (issue 11: down by a quarter from the 147
// identifiers, 99 of them package-level, that it had when the issue was
// filed): at most 110 exported identifiers counting methods, at most 74
// package-level ones, plus what replaced the internal back doors when
// provenance moved into the data (issue 22: ReplaceCell). testdata/api.txt
// is the API (TestAPI).
func TestAPISize(t *testing.T) {
	data, err := os.ReadFile("testdata/api.txt")
	if err != nil {
		t.Fatal(err)
	}
	total, pkg := 0, 0
	for _, line := range strings.Split(string(data), "\n") {
		if line = strings.TrimSpace(line); line == "" || strings.HasPrefix(line, "#") {
			continue
		}
		total++
		if !strings.HasPrefix(line, "method ") {
			pkg++
		}
	}
	if total > 111 || pkg > 75 {
		t.Errorf("%d exported identifiers (%d package-level), want at most 111 (75)", total, pkg)
	}
	t.Logf("%d exported identifiers, %d package-level", total, pkg)
}
