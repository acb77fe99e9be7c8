package dialog_test

// The tests' temporary folders are in memory where the machine has room
// (testtier.Main).

import (
	"os"
	"testing"

	"github.com/nbdialog/ipynb/internal/testtier"
)

func TestMain(m *testing.M) { os.Exit(testtier.Main(m)) }
