package nbformat_test

// Tests of which notebooks have no canonical form: those Python nbformat cannot
// write.

import (
	"errors"
	"os"
	"os/exec"
	"path/filepath"
	"strconv"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"
)

// Notebooks Python nbformat cannot write have no canonical form; the rest
// do. Each case's verdict is checked against Python itself when Debian's
// python3-nbformat is installed (scripts/reference/nbformat_canonical.py
// reports skip-error for the ones it cannot write).
func TestNotCanonical(t *testing.T) {
	t.Parallel()
	tests := []struct {
		name, in string
		pointer  string // "" = writable
	}{
		{"Writable", `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "id": "a", "metadata": {}, "source": "", "outputs": [], "execution_count": null}]}`, "-"},
		{"NoMetadata", `{"nbformat": 4, "nbformat_minor": 5, "cells": []}`, ""},
		{"NoCells", `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}}`, ""},
		{"EmptyCellsObject", `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": {}}`, "-"},
		{"CellNotObject", `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [3]}`, "/cells/0"},
		{"CellNoMetadata", `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "raw", "source": "x"}]}`, "/cells/0"},
		{"CellNoType", `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"metadata": {}, "source": "x"}]}`, "/cells/0"},
		{"CodeNoOutputs", `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "metadata": {}, "source": "x"}]}`, "/cells/0"},
		{"SourceNotStrings", `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "raw", "metadata": {}, "source": ["a", 1]}]}`, "/cells/0/source"},
		{"OutputNoType", `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "metadata": {}, "source": "", "outputs": [{"text": "x"}]}]}`, "/cells/0/outputs/0"},
		{"StreamNoText", `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "metadata": {}, "source": "", "outputs": [{"output_type": "stream", "name": "stdout"}]}]}`, "/cells/0/outputs/0"},
		{"DataNotObject", `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "metadata": {}, "source": "", "outputs": [{"output_type": "display_data", "data": 5, "metadata": {}}]}]}`, "/cells/0/outputs/0/data"},
		{"AttachmentsNotObject", `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "markdown", "metadata": {}, "source": "", "attachments": []}]}`, "/cells/0/attachments"},
		{"LoneSurrogate", `{"nbformat": 4, "nbformat_minor": 5, "metadata": {"x": "\ud800"}, "cells": []}`, "/metadata/x"},
		{"LoneSurrogateInLines", `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "raw", "id": "a", "metadata": {}, "source": ["a\n", "b\ud800\n", "c"]}]}`, "/cells/0/source/1"},
		{"BigIntInArray", `{"nbformat": 4, "nbformat_minor": 5, "metadata": {"x": [1, 2, ` + strings.Repeat("9", 4301) + `]}, "cells": []}`, "/metadata/x/2"},
		{"PairedSurrogates", `{"nbformat": 4, "nbformat_minor": 5, "metadata": {"x": "\ud83e\udd16"}, "cells": []}`, "-"},
		{"MarkdownNoOutputsFine", `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "markdown", "metadata": {}, "source": "x"}]}`, "-"},
	}
	var py string
	if _, err := exec.LookPath("/usr/bin/python3"); err == nil && exec.Command("/usr/bin/python3", "-c", "import nbformat").Run() == nil {
		py = "/usr/bin/python3"
	}
	dir := t.TempDir()
	for i, tc := range tests {
		os.WriteFile(filepath.Join(dir, strconv.Itoa(i)+".ipynb"), []byte(tc.in), 0o644)
	}
	pythonSays := map[string]string{}
	if py != "" {
		out, err := exec.Command(py, referenceScript(t, "nbformat_canonical.py"), dir, t.TempDir()).CombinedOutput()
		if err != nil {
			t.Fatalf("reference: %v\n%s", err, out)
		}
		for _, line := range strings.Split(string(out), "\n") {
			if st, name, ok := strings.Cut(line, " "); ok {
				pythonSays[name] = st
			}
		}
	}
	for i, tc := range tests {
		t.Run(tc.name, func(t *testing.T) {
			nb, err := nbformat.Unmarshal([]byte(tc.in))
			if err != nil {
				t.Fatal(err)
			}
			_, err = nbformat.MarshalOptions{Canonical: true}.Marshal(nb)
			var fe *nbformat.FormatError
			switch {
			case tc.pointer == "-":
				if err != nil {
					t.Errorf("canonical Marshal: %v", err)
				}
			case !errors.Is(err, nbformat.ErrNotCanonical) || !errors.As(err, &fe):
				t.Errorf("canonical Marshal = %v, want ErrNotCanonical", err)
			case string(fe.Pointer) != tc.pointer:
				t.Errorf("pointer %q, want %q (%v)", fe.Pointer, tc.pointer, err)
			}
			if st, ok := pythonSays[strconv.Itoa(i)+".ipynb"]; ok {
				if pyFails := st == "skip-error"; pyFails != (tc.pointer != "-") {
					t.Errorf("Python says %s", st)
				}
			}
		})
	}
}
