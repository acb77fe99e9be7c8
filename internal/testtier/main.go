package testtier

// Main: a test binary's temporary folders in memory where the machine has room.

import (
	"os"
	"testing"
)

// MemTemp is the folder under which Main makes the test binary's
// temporary folders when it is an in-memory file system with room.
const MemTemp = "/dev/shm"

// memTempRoom is the free space MemTemp needs for Main to use it.
const memTempRoom = 4 << 30

// Main runs m's tests (call it from TestMain: os.Exit(testtier.Main(m)))
// in the temporary folder of MemTempDir. The functions after run after
// the tests, before the folder is removed.
func Main(m *testing.M, after ...func()) int {
	remove := MemTempDir()
	defer remove()
	code := m.Run()
	for _, f := range after {
		f()
	}
	return code
}

// MemTempDir sets TMPDIR, and so every t.TempDir and os.TempDir of the
// test binary and of the processes it starts, to a fresh folder under
// MemTemp when TMPDIR is unset and MemTemp is a tmpfs with 4 GiB free
// (on Linux), and returns the function that removes that folder.
// Elsewhere TMPDIR is left as it is (and remove does nothing). On a disk
// a test binary that makes and removes thousands of files and git
// repositories pays the file system's bookkeeping for each (ext4
// without a journal looks past every inode freed in the last minute to
// allocate one); in memory it does not.
func MemTempDir() (remove func()) {
	if os.Getenv("TMPDIR") != "" || !memTempFits(MemTemp, memTempRoom) {
		return func() {}
	}
	dir, err := os.MkdirTemp(MemTemp, "ipynb-test-")
	if err != nil {
		return func() {}
	}
	os.Chmod(dir, 0o777|os.ModeSticky) // as /tmp: other users' processes may use it too
	os.Setenv("TMPDIR", dir)
	return func() {
		os.RemoveAll(dir)
		os.Unsetenv("TMPDIR")
	}
}
