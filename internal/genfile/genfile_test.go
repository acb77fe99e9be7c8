package genfile

import (
	"os"
	"path/filepath"
	"testing"
)

// Write replaces a file whole, leaves no temporary behind, and refuses a
// symbolic link in the file's place (its target stays untouched).
func TestWrite(t *testing.T) {
	dir := t.TempDir()
	name := filepath.Join(dir, "out.json")
	for _, content := range []string{"first\n", "second\n"} {
		if err := Write(name, []byte(content)); err != nil {
			t.Fatal(err)
		}
		if got, _ := os.ReadFile(name); string(got) != content {
			t.Errorf("file holds %q, want %q", got, content)
		}
	}
	if entries, _ := os.ReadDir(dir); len(entries) != 1 {
		t.Errorf("%d entries in the folder, want only the file", len(entries))
	}
	target := filepath.Join(dir, "target")
	os.WriteFile(target, []byte("keep\n"), 0o644)
	link := filepath.Join(dir, "link.json")
	if err := os.Symlink(target, link); err != nil {
		t.Skip(err)
	}
	if err := Write(link, []byte("x")); err == nil {
		t.Error("wrote through a symbolic link")
	}
	if got, _ := os.ReadFile(target); string(got) != "keep\n" {
		t.Errorf("the link's target changed: %q", got)
	}
}
