package atomicfile

import (
	"errors"
	"os"
	"path/filepath"
	"testing"
)

// Options.New creates a file that does not exist, and refuses anything
// at its name — a file, a link (dangling or not), whether there before
// Replace starts or put there while it writes — writing nothing, through
// no link, and leaving no temporary file.
func TestReplaceNew(t *testing.T) {
	type setup func(t *testing.T, dir, name string)
	file := func(t *testing.T, dir, name string) { write(t, name, "theirs") }
	dangling := func(t *testing.T, dir, name string) { os.Symlink("victim", name) }
	toFile := func(t *testing.T, dir, name string) {
		write(t, filepath.Join(dir, "victim"), "theirs")
		os.Symlink("victim", name)
	}
	for _, tc := range []struct {
		what   string
		before setup // at the name before Replace
		during setup // at the name right before it publishes
	}{
		{what: "nothing there"},
		{what: "a file there", before: file},
		{what: "a dangling link there", before: dangling},
		{what: "a link to a file there", before: toFile},
		{what: "a file appears", during: file},
		{what: "a dangling link appears", during: dangling},
		{what: "a link to a file appears", during: toFile},
	} {
		t.Run(tc.what, func(t *testing.T) {
			dir := t.TempDir()
			name := filepath.Join(dir, "out.ipynb")
			if tc.before != nil {
				tc.before(t, dir, name)
			}
			o := Options{New: true}
			if tc.during != nil {
				o.BeforeCheck = func() { tc.during(t, dir, name) }
			}
			_, err := Replace(name, []byte(nb), o)
			blocked := tc.before != nil || tc.during != nil
			if !blocked {
				if err != nil {
					t.Fatal(err)
				}
				if got, _ := os.ReadFile(name); string(got) != nb {
					t.Errorf("created %q", got)
				}
			} else if !errors.Is(err, ErrChanged) {
				t.Errorf("Replace = %v, want ErrChanged", err)
			}
			entries, _ := os.ReadDir(dir)
			for _, e := range entries {
				switch e.Name() {
				case "out.ipynb":
					if blocked {
						fi, _ := os.Lstat(name)
						if got, _ := os.ReadFile(name); fi.Mode().IsRegular() && string(got) != "theirs" {
							t.Errorf("the file there became %q", got)
						}
					}
				case "victim":
					if got, _ := os.ReadFile(filepath.Join(dir, "victim")); string(got) != "theirs" {
						t.Errorf("the link's target became %q", got)
					}
				default:
					t.Errorf("left %s in the folder", e.Name())
				}
			}
		})
	}
}
