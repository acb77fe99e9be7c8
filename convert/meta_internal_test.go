package convert

import (
	"encoding/hex"
	"encoding/json"
	"os/exec"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/nbdialog/ipynb/internal/corpus"
	"github.com/nbdialog/ipynb/internal/nbgeneric"
	"github.com/nbdialog/ipynb/nbformat"
)

// metaMap gives what nbgeneric.ToMap gives for every cell's metadata in
// the corpus and for the zero metadata of each cell type, taking its fast
// path for empty metadata only.
func TestMetaMapMatchesToMap(t *testing.T) {
	check := func(where string, md any) bool {
		t.Helper()
		want, err := nbgeneric.ToMap(md)
		if err != nil {
			t.Fatal(err)
		}
		got, _, err := metaMap(md)
		if err != nil {
			t.Fatal(err)
		}
		if diff := cmp.Diff(want, got); diff != "" {
			t.Errorf("%s: metaMap differs from ToMap (-want +got):\n%s", where, diff)
		}
		extra, ok := onlyExtra(md)
		return ok && len(extra) == 0
	}
	check("zero code cell metadata", &nbformat.CodeCellMetadata{})
	check("zero markdown cell metadata", &nbformat.MarkdownCellMetadata{})
	check("zero raw cell metadata", &nbformat.RawCellMetadata{})
	empty, cells := 0, 0
	for e, data := range corpus.Files(t) {
		nb, err := nbformat.Unmarshal(data)
		if err != nil || nb.Nbformat != 4 {
			continue
		}
		for _, c := range nb.Cells {
			var md any
			switch c := c.(type) {
			case *nbformat.CodeCell:
				md = &c.Metadata
			case *nbformat.MarkdownCell:
				md = &c.Metadata
			case *nbformat.RawCell:
				md = &c.Metadata
			default:
				continue
			}
			cells++
			if check(e.Path, md) {
				empty++
			}
		}
	}
	t.Logf("%d cells, %d with empty metadata", cells, empty)
}

// decodeBase64 reads what Python's base64 reads once the line breaks,
// spaces and tabs encoders put in are removed, and refuses the rest.
func TestDecodeBase64MatchesPython(t *testing.T) {
	py := anyPython()
	if py == "" {
		t.Skip("python3 not found")
	}
	texts := []string{"aGVsbG8=", "aGVs\nbG8=", "aGVs\r\nbG8=\n", "aGVs bG8=", "aGVs\tbG8=", "aGVsbG8", "aGVsbG8=\n\n",
		"", "\n", "====", "aGVs*bG8=", "iVBORw0KGgo=\n", "aGVsbG8=aGVsbG8="}
	in, _ := json.Marshal(texts)
	out, err := exec.Command(py, "-c", `import base64, binascii, json, sys
res = []
for s in json.loads(sys.argv[1]):
    try:
        res.append(base64.b64decode("".join(s.split()), validate=True).hex())
    except (binascii.Error, ValueError):
        res.append(None)
print(json.dumps(res))`, string(in)).Output()
	if err != nil {
		t.Skipf("python3: %v", err)
	}
	var want []*string
	if err := json.Unmarshal(out, &want); err != nil || len(want) != len(texts) {
		t.Fatalf("python3 said %s: %v", out, err)
	}
	for i, s := range texts {
		got, ok := decodeBase64(s)
		switch {
		case want[i] == nil && ok:
			t.Errorf("%q: decoded %x, Python refuses it", s, got)
		case want[i] != nil && (!ok || hex.EncodeToString(got) != *want[i]):
			t.Errorf("%q: %x (%v), Python reads %s", s, got, ok, *want[i])
		}
	}
}

// anyPython is Debian's python3 (or any python3), or "".
func anyPython() string {
	for _, py := range []string{"/usr/bin/python3", "python3"} {
		if p, err := exec.LookPath(py); err == nil {
			return p
		}
	}
	return ""
}
