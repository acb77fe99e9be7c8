package nbformat_test

import (
	"testing"

	"github.com/nbdialog/ipynb/internal/nbtest"
)

// The exported API is exactly testdata/api.txt; internal/apisize bounds
// the size of the four packages' API together. Helpers only the module
// needs live in internal/ (nbmap, lines, mimetype, cellid).
func TestAPI(t *testing.T) { nbtest.CheckAPI(t, ".", "testdata/api.txt") }
