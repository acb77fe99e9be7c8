package nbhtml

import (
	"os"
	"testing"

	"github.com/nbdialog/ipynb/internal/browsertest"
)

func TestMain(m *testing.M) { os.Exit(browsertest.Main(m)) }
