package nbtest

import (
	"bytes"
	"os/exec"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// The one interpreter gives each notebook the verdict a fresh
// `nbformat.validate(nbformat.reads(sys.stdin.read(), ...))` gives it,
// in any order and after a refusal.
func TestPythonComplaintAsOneShot(t *testing.T) {
	py := NbformatPython()
	if py == "" {
		t.Skip("no Python nbformat (apt-get install python3-nbformat)")
	}
	valid := `{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`
	for _, in := range []string{
		valid,
		`{"cells": [{"cell_type": "code"}], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`,
		`{"cells": [], "metadata": {}, "nbformat": 4`,
		"{\r\n\"cells\": [],\r\n\"metadata\": {\"k\": \"\xe2\x82\xac\"}, \"nbformat\": 4, \"nbformat_minor\": 5}",
		"{\"cells\": [], \"metadata\": {\"k\": \"\xff\"}, \"nbformat\": 4, \"nbformat_minor\": 5}",
		`{"cells": [], "metadata": {"k": "\ud83d"}, "nbformat": 4, "nbformat_minor": 5}`,
		"",
		valid,
	} {
		if !testtier.Full() && !(in == valid || strings.Contains(in, "\r") || strings.Contains(in, "\xff")) {
			continue // a fresh Python costs a third of a second each
		}
		cmd := exec.Command(py, "-c", "import sys, nbformat; nbformat.validate(nbformat.reads(sys.stdin.read(), as_version=nbformat.NO_CONVERT))")
		cmd.Stdin = bytes.NewReader([]byte(in))
		want := cmd.Run() == nil
		msg, ok := PythonComplaint([]byte(in))
		if !ok {
			t.Fatal("no answer from the interpreter")
		}
		if (msg == "") != want {
			t.Errorf("%q: complaint %q, a fresh Python accepts it: %v", in, msg, want)
		}
	}
}
