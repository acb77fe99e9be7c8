//go:build race

package testtier

// Race reports a -race build. Tests that count allocations or measure
// memory skip there: the race detector's instrumentation allocates, and
// sync.Pool drops a share of what is put back at random, so pooled
// buffers are made again.
const Race = true
