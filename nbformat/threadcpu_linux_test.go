package nbformat_test

import (
	"syscall"
	"time"
	"unsafe"
)

// clockThreadCPUTime is Linux's CLOCK_THREAD_CPUTIME_ID.
const clockThreadCPUTime = 3

// threadCPU returns the processor time the calling OS thread has used,
// to the nanosecond (getrusage's RUSAGE_THREAD counts in clock ticks):
// unlike the wall clock, it does not count the time the thread waited for
// a processor, which other work on a loaded machine stretches at will.
// The caller holds its thread (runtime.LockOSThread).
func threadCPU() (time.Duration, bool) {
	var ts syscall.Timespec
	if _, _, e := syscall.Syscall(syscall.SYS_CLOCK_GETTIME, clockThreadCPUTime, uintptr(unsafe.Pointer(&ts)), 0); e != 0 {
		return 0, false
	}
	return time.Duration(ts.Nano()), true
}
