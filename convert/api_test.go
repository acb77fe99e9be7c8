package convert_test

import (
	"os"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/nbtest"
)

// The exported API is exactly testdata/api.txt (the atomic writer is
// internal/atomicfile's, not an entry point of Options).
func TestAPI(t *testing.T) { nbtest.CheckAPI(t, ".", "testdata/api.txt") }

// Options has few entry points (issue 11: it had 14, then 17): at most 12
// methods, the overlapping writers folded into Options.Messages and
// nbformat's MarshalTo. testdata/api.txt is the API (TestAPI).
func TestOptionsMethods(t *testing.T) {
	data, err := os.ReadFile("testdata/api.txt")
	if err != nil {
		t.Fatal(err)
	}
	n := strings.Count(string(data), "\nmethod Options.")
	if n > 12 {
		t.Errorf("%d methods on Options, want at most 12", n)
	}
	t.Logf("%d methods on Options", n)
}
