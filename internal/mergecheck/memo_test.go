// memo: a bounded, concurrency-safe cache of pure functions of a file's bytes.
package mergecheck

import "sync"

// memo remembers the values of a pure function of a byte string for the
// last max keys it was asked (inputs over maxKey bytes are not kept): the
// judges read the same sides and results again and again, one reading
// of the cells after another.
type memo[V any] struct {
	mu    sync.Mutex
	vals  map[string]V
	order []string // keys in the order they were added, oldest first
	max   int
}

const maxKey = 1 << 20

func newMemo[V any](max int) *memo[V] {
	return &memo[V]{vals: make(map[string]V, max), max: max}
}

// get returns f's value for data, computed once while data is kept.
func (m *memo[V]) get(data []byte, f func([]byte) V) V {
	if len(data) > maxKey {
		return f(data)
	}
	m.mu.Lock()
	v, ok := m.vals[string(data)]
	m.mu.Unlock()
	if ok {
		return v
	}
	v = f(data)
	key := string(data)
	m.mu.Lock()
	defer m.mu.Unlock()
	if _, ok := m.vals[key]; ok {
		return v
	}
	if len(m.order) >= m.max {
		delete(m.vals, m.order[0])
		m.order = m.order[1:]
	}
	m.vals[key] = v
	m.order = append(m.order, key)
	return v
}
