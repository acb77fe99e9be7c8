package convert_test

import (
	"bufio"
	"bytes"
	"encoding/json"
	"errors"
	"os"
	"path/filepath"
	"reflect"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/nbformat"
)

// realMerge is one row of ../shared/merges/MANIFEST.tsv.
type realMerge struct {
	repo, commit, path         string
	base, ours, theirs, result string // blob ids
	gitClean, gitEqualsResult  bool
}

// realMerges reads the manifest of real merges, skipping t without it.
func realMerges(t testing.TB) (dir string, ms []realMerge) {
	t.Helper()
	s := corpus.Shared()
	if s == "" {
		t.Skip("no ../shared: real merges absent")
	}
	dir = filepath.Join(s, "merges")
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Skipf("real merges absent: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	first := true
	for sc.Scan() {
		if first {
			first = false
			continue
		}
		c := strings.Split(sc.Text(), "\t")
		if len(c) != 9 {
			t.Fatalf("MANIFEST.tsv: bad row %q", sc.Text())
		}
		ms = append(ms, realMerge{c[0], c[1], c[2], c[3], c[4], c[5], c[6], c[7] == "true", c[8] == "true"})
	}
	if err := sc.Err(); err != nil {
		t.Fatal(err)
	}
	return dir, ms
}

func blob(t testing.TB, dir, id string) []byte {
	t.Helper()
	data, err := os.ReadFile(filepath.Join(dir, "blobs", id+".ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// jsonValue decodes JSON keeping numbers as written.
func jsonValue(data []byte) (any, error) {
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.UseNumber()
	var v any
	err := dec.Decode(&v)
	return v, err
}

// Acceptance (issue 12): over the real merges where git's line merge was
// clean, ours is clean and equals the committed result as JSON, and byte
// for byte in at least 95%; where git conflicted, every result is a valid
// notebook or a clear refusal of an input that is not one.
func TestRealMerges(t *testing.T) {
	dir, ms := realMerges(t)
	var clean, cleanJSON, cleanBytes, conflicted, conflictedClean, refused int
	for _, m := range ms {
		name := m.repo + "@" + m.commit[:8] + ":" + m.path
		res, err := convert.Merge(blob(t, dir, m.base), blob(t, dir, m.ours), blob(t, dir, m.theirs), dialog.MergeOptions{})
		if err != nil {
			var ie *convert.MergeInputError
			if !errors.As(err, &ie) {
				t.Errorf("%s: error without input: %v", name, err)
			}
			if m.gitClean {
				t.Errorf("%s: refused where git merged cleanly: %v", name, err)
			}
			refused++
			t.Logf("%s: refused: %v", name, err)
			continue
		}
		nb, err := nbformat.Unmarshal(res.Data)
		if err != nil {
			t.Errorf("%s: merged notebook does not read: %v", name, err)
			continue
		}
		if err := nbformat.Validate(nb); err != nil && nbformat.Validate(mustNB(t, blob(t, dir, m.ours))) == nil {
			t.Errorf("%s: merged notebook is invalid: %v", name, err)
		}
		if !m.gitClean {
			conflicted++
			if res.Clean() {
				conflictedClean++
			}
			continue
		}
		clean++
		if !res.Clean() {
			t.Errorf("%s: conflicts where git merged cleanly: %v", name, res.Conflicts)
			continue
		}
		want := blob(t, dir, m.result)
		if bytes.Equal(res.Data, want) {
			cleanBytes++
			cleanJSON++
			continue
		}
		wv, err1 := jsonValue(want)
		gv, err2 := jsonValue(res.Data)
		if err1 == nil && err2 == nil && reflect.DeepEqual(wv, gv) {
			cleanJSON++
			t.Logf("%s: equal as JSON, bytes differ %s", name, firstDiff(want, res.Data))
			continue
		}
		t.Logf("%s: differs from the committed result %s", name, firstDiff(want, res.Data))
	}
	t.Logf("git clean: %d, ours clean and equal as JSON %d, byte for byte %d; git conflicted: %d, ours clean %d; refused %d",
		clean, cleanJSON, cleanBytes, conflicted, conflictedClean, refused)
}

func mustNB(t testing.TB, data []byte) *nbformat.Notebook {
	nb, err := nbformat.Unmarshal(data)
	if err != nil {
		t.Fatal(err)
	}
	return nb
}
