package main

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
)

// install --outputs STRATEGY writes the strategy into the merge driver
// (validated; conflict is the default, not written); installing again
// without --outputs keeps it, with another replaces it; status shows
// it; uninstall removes the driver whatever its strategy; and a real
// git merge follows it.
func TestGitInstallOutputs(t *testing.T) {
	needGitParallel(t)
	dir := newRepo(t)
	driverValue := func() string { return strings.TrimSpace(gitIn(t, dir, "config", "--get", "merge.ipynb.driver")) }
	if r := ipynb(t, dir, "", "git", "install", "--outputs", "ours"); r.code != 0 || !strings.Contains(driverValue(), " merge --outputs ours --text-fallback --marker-size %L ") {
		t.Fatalf("install --outputs ours: %+v\n%s", r, driverValue())
	}
	if r := ipynb(t, dir, "", "git", "status"); r.code != 0 || !strings.Contains(r.stdout, "outputs and counts both sides changed: ours") {
		t.Errorf("status: %+v", r)
	}
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 || r.stdout != "" || !strings.Contains(driverValue(), "--outputs ours") {
		t.Errorf("install without --outputs changed the strategy: %+v\n%s", r, driverValue())
	}
	if r := ipynb(t, dir, "", "git", "install", "--outputs", "bogus"); r.code != exitError || !strings.Contains(r.stderr, `invalid value "bogus" for --outputs`) || !strings.Contains(driverValue(), "--outputs ours") {
		t.Errorf("install --outputs bogus: %+v", r)
	}
	if r := ipynb(t, dir, "", "git", "install", "--outputs", "conflict"); r.code != 0 || strings.Contains(driverValue(), "--outputs") {
		t.Errorf("install --outputs conflict: %+v\n%s", r, driverValue())
	}
	if r := ipynb(t, dir, "", "git", "status"); r.code != 0 || !strings.Contains(r.stdout, "outputs and counts both sides changed: conflict (the default)") {
		t.Errorf("status: %+v", r)
	}
	if r := ipynb(t, dir, "", "git", "install", "--outputs=theirs"); r.code != 0 || !strings.Contains(driverValue(), "--outputs theirs") {
		t.Fatalf("install --outputs=theirs: %+v", r)
	}

	// Both sides re-ran cell 2 with different results: theirs' outputs.
	base, _ := os.ReadFile(filepath.Join(shipped, "jupyter.ipynb"))
	commitFile(t, dir, "nb.ipynb", base, "base")
	gitIn(t, dir, "checkout", "-q", "-b", "topic")
	commitFile(t, dir, "nb.ipynb", replaceOnce(t, base, "\"2\"\n", "\"4\"\n"), "theirs: 4")
	gitIn(t, dir, "checkout", "-q", "main")
	commitFile(t, dir, "nb.ipynb", replaceOnce(t, base, "\"2\"\n", "\"3\"\n"), "ours: 3")
	if out, st := gitStatusIn(t, dir, "merge", "--no-edit", "topic"); st != 0 {
		t.Fatalf("git merge with --outputs theirs: exit %d\n%s", st, out)
	}
	got := cellOf(decodeJSON(t, []byte(readFile(t, filepath.Join(dir, "nb.ipynb")))), 2)["outputs"].([]any)[0].(map[string]any)["data"].(map[string]any)["text/plain"]
	if s, _ := got.([]any); len(s) != 1 || s[0] != "4" {
		t.Errorf("merged output: %v, want theirs' 4", got)
	}

	if r := ipynb(t, dir, "", "git", "uninstall"); r.code != 0 || strings.Contains(r.stderr, "kept") {
		t.Errorf("uninstall: %+v", r)
	}
	if out, st := gitStatusIn(t, dir, "config", "--get", "merge.ipynb.driver"); st != 1 {
		t.Errorf("driver left after uninstall: %s", out)
	}
}
