package testtier

// memTempFits on Linux: a tmpfs, by statfs.

import "syscall"

// tmpfsMagic is statfs's f_type of a tmpfs (linux/magic.h).
const tmpfsMagic = 0x01021994

// memTempFits reports whether dir is a tmpfs with room bytes free.
func memTempFits(dir string, room uint64) bool {
	var st syscall.Statfs_t
	if syscall.Statfs(dir, &st) != nil {
		return false
	}
	return st.Type == tmpfsMagic && st.Bavail*uint64(st.Bsize) >= room
}
