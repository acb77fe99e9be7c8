package nbhtml

// The tests run with one browser for all of them (browsertest.Main), and
// their temporary folders are in memory where the machine has room.

import (
	"os"
	"testing"

	"github.com/nbdialog/ipynb/internal/browsertest"
)

func TestMain(m *testing.M) { os.Exit(browsertest.Main(m)) }
