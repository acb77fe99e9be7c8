package nbformat_test

// Tests of the metadata structs and first optional fields decoded into the
// notebook's own block: no allocation more.

import (
	"testing"

	"github.com/nbdialog/ipynb/nbformat"

	"github.com/nbdialog/ipynb/internal/zerocopy"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// Reading a notebook allocates the kernelspec and
// language_info its metadata nearly always has, in the notebook's own
// block: a notebook with both (of string fields only: those share the
// input's copy) costs not one allocation more than the same notebook
// without them (two more before), and what is read
// is what was (values, round trip, edits in place written). Each
// measured exactly, as the least allocation count over single reads (a
// collection between reads empties the parser's pooled scratch).
func TestUnmarshalMetadataStructsInNotebookBlock(t *testing.T) {
	if !zerocopy.Views {
		t.Skip("purego: the views are copies (they allocate, and share nothing)")
	}
	const (
		without = `{"cells": [], "metadata": {}, "nbformat": 4, "nbformat_minor": 5}`
		plain   = `{"cells": [], "metadata": {"kernelspec": {"display_name": "Python 3", "name": "python3"}, "language_info": {"name": "python"}}, "nbformat": 4, "nbformat_minor": 5}`
		with    = `{"cells": [], "metadata": {"kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}, "language_info": {"file_extension": ".py", "name": "python", "version": "3.12.1"}}, "nbformat": 4, "nbformat_minor": 5}`
		// Both twice: the second of each is decoded as Go decodes it (a
		// repeated key replaces), into a value of its own.
		twice = `{"cells": [], "metadata": {"kernelspec": {"display_name": "A", "name": "a"}, "language_info": {"name": "x"}, "kernelspec": {"display_name": "Python 3", "language": "python", "name": "python3"}, "language_info": {"file_extension": ".py", "name": "python", "version": "3.12.1"}}, "nbformat": 4, "nbformat_minor": 5}`
	)
	allocs := func(data string) float64 {
		least := 1e9
		for range 10 {
			least = min(least, testing.AllocsPerRun(1, func() {
				if _, err := nbformat.Unmarshal([]byte(data)); err != nil {
					t.Fatal(err)
				}
			}))
		}
		return least
	}
	for _, data := range []string{with, twice} {
		nb, err := nbformat.Unmarshal([]byte(data))
		if err != nil {
			t.Fatal(err)
		}
		ks, li := nb.Metadata.Kernelspec, nb.Metadata.LanguageInfo
		if ks == nil || li == nil || ks.DisplayName != "Python 3" || ks.Name != "python3" || ks.AdditionalProperties["language"] != "python" ||
			li.Name != "python" || li.FileExtension == nil || *li.FileExtension != ".py" || li.AdditionalProperties["version"] != "3.12.1" {
			t.Fatalf("read %+v and %+v", ks, li)
		}
		if out, err := nbformat.Marshal(nb); err != nil || string(out) != data {
			t.Fatalf("round trip: %s, %v", out, err)
		}
		// Edited in place, they are written as edited.
		ks.Name, li.Name = "julia", "julia"
		out, err := nbformat.Marshal(nb)
		if err != nil {
			t.Fatal(err)
		}
		back, err := nbformat.Unmarshal(out)
		if err != nil || back.Metadata.Kernelspec.Name != "julia" || back.Metadata.LanguageInfo.Name != "julia" {
			t.Fatalf("edits not written: %s, %v", out, err)
		}
	}
	if testtier.Race {
		return
	}
	if a, b := allocs(without), allocs(plain); b != a {
		t.Errorf("Unmarshal: %v allocations without kernelspec and language_info, %v with them: want as many", a, b)
	}
}

// The first optional strings and flags a notebook has (language_info's
// file_extension, mimetype and pygments_lexer; the collapsed and scrolled
// of cells' metadata) are decoded into the notebook's own block: reading
// them costs no allocation (one block of each before), and what is read
// is what was (round trip, edits in place written). Measured as
// TestUnmarshalMetadataStructsInNotebookBlock is.
func TestUnmarshalFirstOptionalsInNotebookBlock(t *testing.T) {
	if !zerocopy.Views {
		t.Skip("purego: the views are copies (they allocate, and share nothing)")
	}
	const (
		without = `{"cells": [{"cell_type": "code", "execution_count": 1, "id": "a", "metadata": {}, "outputs": [], "source": []}], "metadata": {"language_info": {"name": "python"}}, "nbformat": 4, "nbformat_minor": 5}`
		with    = `{"cells": [{"cell_type": "code", "execution_count": 1, "id": "a", "metadata": {"collapsed": true, "scrolled": false}, "outputs": [], "source": []}], "metadata": {"language_info": {"file_extension": ".py", "mimetype": "text/x-python", "name": "python", "pygments_lexer": "ipython3"}}, "nbformat": 4, "nbformat_minor": 5}`
	)
	nb, err := nbformat.Unmarshal([]byte(with))
	if err != nil {
		t.Fatal(err)
	}
	li, md := nb.Metadata.LanguageInfo, &nb.Cells[0].(*nbformat.CodeCell).Metadata
	if *li.FileExtension != ".py" || *li.Mimetype != "text/x-python" || *li.PygmentsLexer != "ipython3" || !*md.Collapsed || md.Scrolled != false {
		t.Fatalf("read %+v, %+v", li, md)
	}
	if out, err := nbformat.Marshal(nb); err != nil || string(out) != with {
		t.Fatalf("round trip: %s, %v", out, err)
	}
	*li.Mimetype, *md.Collapsed = "text/plain", false
	out, err := nbformat.Marshal(nb)
	if err != nil {
		t.Fatal(err)
	}
	back, err := nbformat.Unmarshal(out)
	if err != nil || *back.Metadata.LanguageInfo.Mimetype != "text/plain" || *back.Cells[0].(*nbformat.CodeCell).Metadata.Collapsed {
		t.Fatalf("edits not written: %s, %v", out, err)
	}
	if testtier.Race {
		return
	}
	allocs := func(data string) float64 {
		least := 1e9
		for range 10 {
			least = min(least, testing.AllocsPerRun(1, func() {
				if _, err := nbformat.Unmarshal([]byte(data)); err != nil {
					t.Fatal(err)
				}
			}))
		}
		return least
	}
	if a, b := allocs(without), allocs(with); b != a {
		t.Errorf("Unmarshal: %v allocations without the optional strings and flags, %v with them: want as many", a, b)
	}
}
