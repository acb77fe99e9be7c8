package testtier_test

import (
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// The tier follows IPYNB_LONG, and -short keeps it off.
func TestTier(t *testing.T) {
	for _, tc := range []struct {
		env  string
		full bool
	}{{"", false}, {"0", false}, {"yes", false}, {"1", !testing.Short()}} {
		t.Setenv(testtier.Env, tc.env)
		if got := testtier.Full(); got != tc.full {
			t.Errorf("%s=%q: Full() = %v, want %v", testtier.Env, tc.env, got, tc.full)
		}
		var sampled int
		for i := range 64 {
			if testtier.Sample(i) {
				sampled++
			}
		}
		if want := map[bool]int{true: 64, false: 64 / testtier.Every}[tc.full]; sampled != want {
			t.Errorf("%s=%q: Sample took %d of 64, want %d", testtier.Env, tc.env, sampled, want)
		}
		ran := false
		t.Run("Long", func(t *testing.T) {
			testtier.Long(t)
			ran = true
		})
		if ran != tc.full {
			t.Errorf("%s=%q: a Long test ran = %v, want %v", testtier.Env, tc.env, ran, tc.full)
		}
	}
}

// MemTempDir moves TMPDIR into /dev/shm exactly when TMPDIR is unset and
// /proc/mounts lists /dev/shm as a tmpfs (with room), and remove takes
// the folder away; a TMPDIR the user set stays.
func TestMemTempDir(t *testing.T) {
	user := t.TempDir()
	t.Setenv("TMPDIR", user)
	remove := testtier.MemTempDir()
	if got := os.Getenv("TMPDIR"); got != user {
		t.Errorf("TMPDIR set by the user: became %q", got)
	}
	remove()
	if got := os.Getenv("TMPDIR"); got != user {
		t.Errorf("TMPDIR set by the user: after remove, %q", got)
	}

	mounts, err := os.ReadFile("/proc/mounts")
	if err != nil {
		t.Skip("no /proc/mounts:", err)
	}
	tmpfs := false
	for _, line := range strings.Split(string(mounts), "\n") {
		if f := strings.Fields(line); len(f) > 2 && f[1] == testtier.MemTemp && f[2] == "tmpfs" {
			tmpfs = true
		}
	}
	os.Unsetenv("TMPDIR") // t.Setenv gives back the first value at the end
	remove = testtier.MemTempDir()
	dir := os.Getenv("TMPDIR")
	if !tmpfs {
		remove()
		if dir != "" {
			t.Errorf("%s is no tmpfs, yet TMPDIR = %q", testtier.MemTemp, dir)
		}
		return
	}
	if dir == "" {
		remove()
		t.Skipf("%s is a tmpfs without 4 GiB free", testtier.MemTemp)
	}
	if filepath.Dir(dir) != testtier.MemTemp {
		t.Errorf("TMPDIR = %q, not a folder of %s", dir, testtier.MemTemp)
	}
	if fi, err := os.Stat(dir); err != nil || !fi.IsDir() {
		t.Errorf("TMPDIR %q is no folder: %v", dir, err)
	}
	if got := os.TempDir(); got != dir {
		t.Errorf("os.TempDir() = %q, want %q", got, dir)
	}
	remove()
	if _, err := os.Stat(dir); !os.IsNotExist(err) {
		t.Errorf("after remove, %q: %v", dir, err)
	}
	if got := os.Getenv("TMPDIR"); got != "" {
		t.Errorf("after remove, TMPDIR = %q", got)
	}
}
