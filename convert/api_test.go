package convert_test

import (
	"testing"

	"github.com/nbdialog/ipynb/internal/nbtest"
)

// The exported API is exactly testdata/api.txt (the atomic writer is
// internal/atomicfile's, not an entry point of the options); internal/apisize
// bounds the size of the four packages' API together.
func TestAPI(t *testing.T) { nbtest.CheckAPI(t, ".", "testdata/api.txt") }
