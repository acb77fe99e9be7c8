package nbtest

// Writing a program a test then runs, safe beside parallel tests.

import (
	"os"
	"syscall"
	"testing"
)

// WriteExecutable writes data to path as a program (mode 0755) that the
// test then runs. The file is open for writing only while
// syscall.ForkLock is held for reading: a process forked meanwhile by a
// parallel test (exec takes the lock to fork) would otherwise inherit the
// descriptor until its own exec, and running the program in that window
// fails with "text file busy" (ETXTBSY; Go issue 22315).
func WriteExecutable(t testing.TB, path string, data []byte) {
	t.Helper()
	syscall.ForkLock.RLock()
	defer syscall.ForkLock.RUnlock()
	if err := os.WriteFile(path, data, 0o755); err != nil {
		t.Fatal(err)
	}
}
