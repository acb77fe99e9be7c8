package atomicfile

// Named temporary files (their names carry the process id) and the sweep of
// those whose process is gone.

import (
	"crypto/rand"
	"encoding/hex"
	"errors"
	"io/fs"
	"os"
	"strconv"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Named temporary files are ".<name>.save-<pid>-<12 hex digits>.tmp": the
// process id says whose they are, so that leftovers of a process that is
// gone can be told from saves in progress.
const (
	tempMarker = ".save-"
	tempSuffix = ".tmp"
	randHex    = 12
	// maxTempBase keeps temporary names within NAME_MAX (255 bytes).
	maxTempBase = 200
)

// tempBase is a fresh temporary name for the file base.
func tempBase(base string) string {
	if len(base) > maxTempBase {
		base = base[:maxTempBase]
	}
	var r [randHex / 2]byte
	rand.Read(r[:])
	return "." + base + tempMarker + strconv.Itoa(os.Getpid()) + "-" + hex.EncodeToString(r[:]) + tempSuffix
}

// tempOwner returns the process id in a temporary name, or false if name is
// not one.
func tempOwner(name string) (int, bool) {
	if !strings.HasPrefix(name, ".") || !strings.HasSuffix(name, tempSuffix) {
		return 0, false
	}
	i := strings.LastIndex(name, tempMarker)
	if i < 1 {
		return 0, false
	}
	pidText, r, ok := strings.Cut(name[i+len(tempMarker):len(name)-len(tempSuffix)], "-")
	if !ok || len(r) != randHex {
		return 0, false
	}
	if _, err := hex.DecodeString(r); err != nil {
		return 0, false
	}
	pid, err := strconv.Atoi(pidText)
	if err != nil || pid <= 0 || strconv.Itoa(pid) != pidText {
		return 0, false
	}
	return pid, true
}

// createNamed creates a named temporary file for base in root.
func createNamed(root *os.Root, base string, perm fs.FileMode) (*os.File, string, error) {
	for range 100 {
		tmp := tempBase(base)
		f, err := root.OpenFile(tmp, os.O_RDWR|os.O_CREATE|os.O_EXCL, perm)
		if errors.Is(err, fs.ErrExist) {
			continue
		}
		if err != nil {
			return nil, "", pathErr(err)
		}
		return f, tmp, nil
	}
	return nil, "", errors.New("cannot create a temporary file")
}

// sweepEvery: a process sweeps a folder at most this often.
var sweepEvery = time.Minute

var (
	sweptMu sync.Mutex
	swept   = map[sweepKey]time.Time{} // folder → last sweep
	sweeps  int                        // folders scanned (for tests)
)

// sweepKey names a folder: its identity and its name (an inode number is
// reused when a folder is removed and another made).
type sweepKey struct {
	id   fileID
	name string
}

// sweep removes the named temporary files in the folder of root (for any
// file) whose process no longer runs.
func sweep(root *os.Root, dirf *os.File) {
	fi, err := dirf.Stat()
	if err != nil {
		return
	}
	key, now := sweepKey{idOf(fi), root.Name()}, time.Now()
	sweptMu.Lock()
	if last, ok := swept[key]; ok && key.id.known() && now.Sub(last) < sweepEvery {
		sweptMu.Unlock()
		return
	}
	if len(swept) > 256 {
		for k, last := range swept {
			if now.Sub(last) >= sweepEvery {
				delete(swept, k)
			}
		}
	}
	swept[key] = now
	sweeps++
	sweptMu.Unlock()
	d, err := root.Open(".")
	if err != nil {
		return
	}
	entries, _ := d.ReadDir(-1)
	d.Close()
	for _, e := range entries {
		pid, ok := tempOwner(e.Name())
		if !ok || !e.Type().IsRegular() || pid == os.Getpid() || alive(pid) {
			continue
		}
		root.Remove(e.Name())
	}
}

// alive reports whether process pid exists.
func alive(pid int) bool {
	err := syscall.Kill(pid, 0)
	return err == nil || errors.Is(err, syscall.EPERM)
}
