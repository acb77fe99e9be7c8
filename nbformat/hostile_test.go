package nbformat_test

// Hostile input: each case has a defined behaviour, and costs memory in
// proportion to its size (checked by allocation counts, never by time).

import (
	"bytes"
	"errors"
	"os"
	"path/filepath"
	"runtime"
	"strconv"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"
)

// allocated returns the bytes allocated while f runs.
func allocated(f func()) uint64 {
	var before, after runtime.MemStats
	runtime.GC()
	runtime.ReadMemStats(&before)
	f()
	runtime.ReadMemStats(&after)
	return after.TotalAlloc - before.TotalAlloc
}

func TestHostileDeepNesting(t *testing.T) {
	in := `{"nbformat": 4, "metadata": {"x": ` + strings.Repeat("[", 1_000_000) + strings.Repeat("]", 1_000_000) + `}}`
	var err error
	n := allocated(func() { _, err = nbformat.Unmarshal([]byte(in)) })
	var se *nbformat.SyntaxError
	if !errors.As(err, &se) || !errors.Is(err, nbformat.ErrLimit) || !strings.Contains(err.Error(), "nesting deeper than 10000 levels") {
		t.Fatalf("error %v", err)
	}
	if n > 8*uint64(len(in)) {
		t.Errorf("allocated %d bytes for %d of input", n, len(in))
	}
}

func TestHostileManyEmptyCells(t *testing.T) {
	cells := strings.Repeat("{},", 999_999) + "{}"
	in := []byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [` + cells + `]}`)
	_, err := nbformat.Unmarshal(in)
	var fe *nbformat.FormatError
	if !errors.As(err, &fe) || fe.Pointer != "/cells" || !errors.Is(err, nbformat.ErrLimit) {
		t.Fatalf("1e6 cells with the default limit: %v", err)
	}
	// Allowed explicitly, they are read, kept and written back.
	var nb *nbformat.Notebook
	n := allocated(func() { nb, err = nbformat.UnmarshalOptions{MaxCells: 2_000_000}.Unmarshal(in) })
	if err != nil {
		t.Fatal(err)
	}
	if len(nb.Cells) != 1_000_000 {
		t.Fatalf("%d cells", len(nb.Cells))
	}
	if per := n / 1_000_000; per > 400 {
		t.Errorf("%d bytes allocated per empty cell", per)
	}
	out, err := nbformat.Marshal(nb)
	if err != nil || !bytes.Equal(out, in) {
		t.Errorf("round trip: %v", err)
	}
}

func TestHostileHugeNumbers(t *testing.T) {
	t.Parallel()
	digits := strings.Repeat("7", 1_000_000)
	for _, num := range []string{digits, "-" + digits, "0." + digits, digits + "e-999999"} {
		in := []byte(`{"nbformat": 4, "nbformat_minor": 5, "metadata": {"n": ` + num + `}, "cells": []}`)
		nb, err := nbformat.Unmarshal(in)
		if err != nil {
			t.Fatalf("%.20s…: %v", num, err)
		}
		out, _ := nbformat.Marshal(nb)
		if !bytes.Equal(out, in) {
			t.Errorf("%.20s…: not kept", num)
		}
		if err := nbformat.Validate(nb); err != nil {
			t.Errorf("%.20s…: %v", num, err)
		}
		_, err = nbformat.MarshalOptions{Canonical: true}.Marshal(nb)
		isInt := !strings.ContainsAny(num, ".e")
		// Python refuses to read integers of more than 4300 digits.
		if isInt != errors.Is(err, nbformat.ErrNotCanonical) {
			t.Errorf("%.20s…: canonical: %v", num, err)
		}
	}
}

func TestHostileLongString(t *testing.T) {
	t.Parallel()
	in := []byte(`{"nbformat": 4, "metadata": {"s": "` + strings.Repeat("a", 1000) + `"}}`)
	_, err := nbformat.UnmarshalOptions{MaxString: 999}.Unmarshal(in)
	if !errors.Is(err, nbformat.ErrLimit) || !strings.Contains(err.Error(), "a string of 1000 bytes, more than the limit of 999") {
		t.Errorf("long string: %v", err)
	}
	if _, err := (nbformat.UnmarshalOptions{MaxString: 1000}).Unmarshal(in); err != nil {
		t.Errorf("string at the limit: %v", err)
	}
}

// A file claiming a huge size is refused before anything is read: a sparse
// file of 2 GiB costs nothing to make and would cost 2 GiB to read.
func TestHostileHugeFile(t *testing.T) {
	path := filepath.Join(t.TempDir(), "huge.ipynb")
	f, err := os.Create(path)
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"nbformat": 4, "metadata": {"s": "`)
	if err := f.Truncate(2 << 30); err != nil {
		t.Skipf("cannot make a sparse file: %v", err)
	}
	f.Close()
	var nerr error
	n := allocated(func() { _, nerr = nbformat.ReadFile(path) })
	if !errors.Is(nerr, nbformat.ErrLimit) || !strings.Contains(nerr.Error(), "huge.ipynb") || !strings.Contains(nerr.Error(), "more than the limit") {
		t.Errorf("ReadFile: %v", nerr)
	}
	if n > 1<<20 {
		t.Errorf("allocated %d bytes refusing it", n)
	}
}

// A UTF-8 byte-order mark is kept by a round trip, refused by canonical
// output (Python's json module refuses it) and removed by Heal.
func TestHostileBOM(t *testing.T) {
	t.Parallel()
	in := "\xef\xbb\xbf" + `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": []}` + "\n"
	nb, err := nbformat.Unmarshal([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := nbformat.Marshal(nb); string(out) != in {
		t.Error("BOM not kept")
	}
	if _, err := (nbformat.MarshalOptions{Canonical: true}).Marshal(nb); !errors.Is(err, nbformat.ErrNotCanonical) {
		t.Errorf("canonical: %v", err)
	}
	repairs, err := nbformat.Heal(nb)
	if err != nil || len(repairs) != 1 || !strings.Contains(repairs[0].What, "byte-order mark") {
		t.Fatalf("Heal: %v %v", repairs, err)
	}
	if out, _ := nbformat.Marshal(nb); string(out) != in[3:] {
		t.Errorf("healed: %q", out)
	}
}

// NaN and Infinity (which Python reads and writes) are kept; where the
// schema wants an integer, they are reported.
func TestHostileNaN(t *testing.T) {
	t.Parallel()
	in := `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "id": "a", "metadata": {}, "source": "", "outputs": [], "execution_count": NaN}]}`
	nb, err := nbformat.Unmarshal([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	if out, _ := nbformat.Marshal(nb); string(out) != in {
		t.Error("NaN not kept")
	}
	probs := nbformat.Problems(nbformat.Validate(nb))
	if len(probs) != 1 || probs[0].Pointer != "/cells/0/execution_count" || probs[0].Keyword != "type" {
		t.Errorf("problems %v", probs)
	}
}

// Objects with tens of thousands of members (in notebook metadata, cell
// metadata, a mime bundle, a cell itself) go through reading, validation,
// canonical output and an edit; none of these is quadratic in the number
// of members (FuzzUnmarshal stalled on such input before that was fixed).
func TestHostileWideObjects(t *testing.T) {
	t.Parallel()
	keys := func(n int) string {
		var b strings.Builder
		for i := 0; i < n; i++ {
			if i > 0 {
				b.WriteString(",")
			}
			b.WriteString(`"k` + strconv.Itoa(i) + `": "v"`)
		}
		return b.String()
	}
	k := keys(20000)
	for name, in := range map[string]string{
		"NotebookMetadata": `{"nbformat": 4, "nbformat_minor": 5, "metadata": {` + k + `}, "cells": [{"cell_type": "raw", "id": "a", "metadata": {}, "source": "x"}]}`,
		"MimeBundle":       `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "code", "id": "a", "metadata": {}, "source": "x", "execution_count": null, "outputs": [{"output_type": "display_data", "metadata": {}, "data": {` + k + `}}]}]}`,
		"CellMetadata":     `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "raw", "id": "a", "metadata": {` + k + `}, "source": "x"}]}`,
		"StrayCellMembers": `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "raw", "id": "a", "metadata": {}, "source": "x", ` + k + `}]}`,
	} {
		t.Run(name, func(t *testing.T) { fuzzOne(t, []byte(in)) })
	}
}

// Healing a cell with tens of thousands of stray members is not quadratic
// either, and keeps the cell's content.
func TestHostileHealWide(t *testing.T) {
	t.Parallel()
	var b strings.Builder
	for i := 0; i < 20000; i++ {
		b.WriteString(`, "k` + strconv.Itoa(i) + `": 1`)
	}
	in := `{"nbformat": 4, "nbformat_minor": 5, "metadata": {}, "cells": [{"cell_type": "raw", "id": "a", "metadata": {}, "source": "keep me"` + b.String() + `}]}`
	nb, err := nbformat.Unmarshal([]byte(in))
	if err != nil {
		t.Fatal(err)
	}
	repairs, err := nbformat.Heal(nb)
	if err != nil || len(repairs) != 20000 {
		t.Fatalf("%d repairs, %v", len(repairs), err)
	}
	out, _ := nbformat.Marshal(nb)
	if !strings.Contains(string(out), `"keep me"`) || len(out) > 200 {
		t.Errorf("healed: %.200s", out)
	}
}
