//go:build linux || darwin || dragonfly || freebsd || netbsd || openbsd

package atomicfile

import (
	"errors"
	"os"
	"syscall"
	"time"
)

// lock takes an exclusive flock on f, waiting at most lockWait for
// another holder (never forever: a process that keeps a lock does not
// hang this one).
func lock(f *os.File) error {
	fd := int(f.Fd())
	wait := time.Millisecond
	deadline := time.Now().Add(lockWait)
	for {
		err := syscall.Flock(fd, syscall.LOCK_EX|syscall.LOCK_NB)
		switch {
		case err == nil:
			return nil
		case errors.Is(err, syscall.EINTR):
			continue
		case errors.Is(err, syscall.EWOULDBLOCK):
			if time.Now().After(deadline) {
				return ErrLocked
			}
			time.Sleep(wait)
			wait = min(2*wait, 50*time.Millisecond)
		case errors.Is(err, syscall.ENOLCK), errors.Is(err, syscall.EOPNOTSUPP), errors.Is(err, syscall.EINVAL):
			return nil // the file system has no locks: the checks still run
		default:
			return err
		}
	}
}
