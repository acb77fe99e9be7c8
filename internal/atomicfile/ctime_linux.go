package atomicfile

import (
	"io/fs"
	"syscall"
	"time"
)

// ctimeOf is the file's status change time (zero if unknown).
func ctimeOf(fi fs.FileInfo) time.Time {
	if st, ok := fi.Sys().(*syscall.Stat_t); ok {
		return time.Unix(int64(st.Ctim.Sec), int64(st.Ctim.Nsec))
	}
	return time.Time{}
}
