package nbweb

// Tests of resolving real merges as the page does (ours, theirs, both): valid
// notebooks without conflict markers.

import (
	"bufio"
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/nbformat"
)

// The merges of real notebooks (../shared/merges), resolved as the page
// resolves them: every conflict ours, every conflict theirs, every one
// both. Each resolution gives a notebook that Python's schema (our
// validator, which agrees with it on the corpus) accepts, with no
// conflict marker left in any cell (read with encoding/json), and counts
// every conflict resolved.
func TestResolveRealMerges(t *testing.T) {
	t.Parallel()
	shared := corpus.Shared()
	if shared == "" {
		t.Skip("no ../shared")
	}
	dir := filepath.Join(shared, "merges")
	f, err := os.Open(filepath.Join(dir, "MANIFEST.tsv"))
	if err != nil {
		t.Skipf("no real merges: %v", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Scan() // the header
	merges, conflicted := 0, 0
	for sc.Scan() {
		cols := strings.Split(sc.Text(), "\t")
		if len(cols) < 6 {
			continue
		}
		var paths [3]string
		tmp := t.TempDir()
		for i, id := range cols[3:6] {
			data, err := os.ReadFile(filepath.Join(dir, "blobs", id+".ipynb"))
			if err != nil {
				t.Fatal(err)
			}
			paths[i] = filepath.Join(tmp, []string{"base", "ours", "theirs"}[i]+".ipynb")
			os.WriteFile(paths[i], data, 0o666)
		}
		var stderr bytes.Buffer
		app, st := newMergeApp(reader{stdin: strings.NewReader(""), stderr: &stderr}, paths, "")
		if app == nil {
			// Inputs the merge refuses (older formats): its own tests.
			t.Logf("%s %s: not merged (%d): %s", cols[0], cols[2], st, strings.TrimSpace(stderr.String()))
			continue
		}
		merges++
		a := app.(*mergeApp)
		if len(a.conflicts) == 0 {
			continue
		}
		conflicted++
		page, err := a.page()
		if err != nil || !bytes.Contains(page, []byte(`class="nb-dcell nb-k-changed nb-conflict"`)) {
			t.Errorf("%s: merge page: %v", cols[2], err)
		}
		d, _ := a.in.dialogOf("merged", a.data)
		for _, choice := range []string{"ours", "theirs", "both"} {
			rs := make([]resolution, len(a.conflicts))
			for i := range a.conflicts {
				v := a.view(d, i)
				rs[i].Choice = v.Choices[0].Value // delete, or ours
				for _, ch := range v.Choices {
					if ch.Value == choice {
						rs[i].Choice = choice
						rs[i].Text = unitsText(ch.Text)
					}
				}
				if v.Text && rs[i].Text == "" && rs[i].Choice != choice {
					rs[i].Text = unitsText(v.Choices[0].Text)
				}
			}
			data, resolved, err := a.apply(rs)
			if err != nil {
				t.Errorf("%s %s: %v", cols[2], choice, err)
				continue
			}
			if resolved != len(rs) {
				t.Errorf("%s %s: %d of %d resolved", cols[2], choice, resolved, len(rs))
			}
			nb, err := nbformat.Unmarshal(data)
			if err == nil {
				err = nbformat.Validate(nb)
			}
			if err != nil {
				t.Errorf("%s %s: the resolved notebook is not valid: %v", cols[2], choice, err)
			}
			if m := markersIn(t, data); m != "" {
				t.Errorf("%s %s: a conflict marker is left: %q", cols[2], choice, m)
			}
			// No record of a conflict without text is left (the
			// records' member, anywhere).
			if bytes.Contains(data, []byte(`"`+convert.ConflictsKey+`"`)) {
				t.Errorf("%s %s: a conflict record (%s) is left", cols[2], choice, convert.ConflictsKey)
			}
		}
	}
	t.Logf("%d merges, %d with conflicts", merges, conflicted)
	if conflicted == 0 {
		t.Error("no merge with conflicts: the test proves nothing")
	}
}

// markersIn is the first cell line of a notebook that is a conflict
// marker ("" for none), read with encoding/json.
func markersIn(t *testing.T, data []byte) string {
	var nb struct {
		Cells []struct {
			Source json.RawMessage `json:"source"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatal(err)
	}
	for _, c := range nb.Cells {
		var s string
		var ls []string
		if json.Unmarshal(c.Source, &s) != nil {
			json.Unmarshal(c.Source, &ls)
			s = strings.Join(ls, "")
		}
		for _, l := range strings.Split(s, "\n") {
			if markerLine.MatchString(l) {
				return l
			}
		}
	}
	return ""
}
