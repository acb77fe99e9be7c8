package nbimpl_test

import (
	"testing"

	"github.com/nbdialog/ipynb/internal/nbimpl"
	_ "github.com/nbdialog/ipynb/nbformat"
)

// Importing nbformat sets every function (they are nbformat's own).
func TestSetByNbformat(t *testing.T) {
	if nbimpl.ReadIDProblems == nil {
		t.Fatal("a function is not set")
	}
}
