package jsontree

import (
	"math"
	"slices"
	"sync"
	"sync/atomic"
)

// The parser's scratch: where a parse records its nodes before they are
// copied to their place, reused from parse to parse.

// run parses the value at p.pos and returns its nodes, in a slice of
// their exact size. They are recorded in chunks of a pooled scratch,
// then copied.
func (p *parser) run() ([]Node, error) {
	var nodes []Node
	err := p.record(func(n int) {
		nodes = make([]Node, n)
		p.copyNodes(nodes)
	})
	return nodes, err
}

// record parses the value at p.pos into the chunks of a pooled scratch,
// and on success calls out with the number of nodes recorded, for it to
// copy them (copyNodes) before the scratch goes back to the pool.
func (p *parser) record(out func(n int)) error {
	scanned.Add(int64(len(p.data) - p.pos))
	p.maxValues, p.maxString = orNoLimit(p.lim.MaxNodes), orNoLimit(p.lim.MaxString)
	s := getScratch()
	p.chunks, p.stack = s.chunks, s.stack[:0]
	if len(p.chunks) == 0 {
		// A new scratch (the pool had none: see scratch) starts with
		// a first chunk sized to the input, grown if it fills.
		p.chunks = append(p.chunks, make([]Node, firstChunkLen(len(p.data)-p.pos)))
	}
	p.nodes, p.base, p.cur = p.chunks[0][:0], 0, 0
	p.start = p.pos
	err := p.parse()
	if err == nil {
		out(p.base + len(p.nodes))
	}
	s.chunks, s.stack = p.chunks, nil
	if len(p.chunks) > maxScratch/chunkLen {
		s.chunks = slices.Clone(p.chunks[:maxScratch/chunkLen])
	}
	if cap(p.stack) <= maxScratchDepth {
		s.stack = p.stack
	}
	p.chunks, p.nodes, p.stack = nil, nil, nil
	putScratch(s)
	return err
}

// orNoLimit returns limit, or math.MaxInt for 0 (no limit).
func orNoLimit(limit int) int {
	if limit <= 0 {
		return math.MaxInt
	}
	return limit
}

// copyNodes copies the nodes recorded to dst (of their number).
func (p *parser) copyNodes(dst []Node) {
	for i := range p.cur {
		copy(dst[i*chunkLen:], p.chunks[i])
	}
	copy(dst[p.base:], p.nodes)
}

// firstChunkLen is the length of the first chunk of a new scratch for an
// input of n bytes: more than the nodes of most notebooks of that size
// (the corpus's notebooks under 20 KB have one node per 25 to 160 bytes,
// 52 the median; the chunk grows when it fills, see nextChunk), at most a
// whole chunk.
func firstChunkLen(n int) int {
	return min(chunkLen, 64+n/32)
}

// A scratch holds the nodes and the stack of a parse under way, reused
// from parse to parse. The nodes are recorded in chunks of chunkLen and
// copied to their exact place at the end, so that a parse allocates the
// bytes its tape keeps and, when the scratch is new (the first parse, or
// one that sync.Pool could not serve: the goroutine moved to another
// processor, or collections emptied the pool), one set of chunks about as
// large as those nodes: never a slice regrown by copying past a chunk
// (its successive sizes add up to 4-6 times the last), so that what a
// parse allocates barely depends on the pool's luck. (The number of nodes
// an input records cannot be known before: guesses were twice the need
// on the corpus's small notebooks, a bound on them far more.) The first
// chunk of a new scratch is sized to the input (firstChunkLen) and
// grown, by copying, while it is the only one and full, up to chunkLen (to
// the nodes the input would record at the density read so far):
// a small notebook read on a heap just collected (the pool then misses
// most of the time) allocates about its own nodes, not a whole chunk
// (28 KiB for a 2 KB notebook). The pool keeps the first maxScratch
// nodes' chunks. (Frames hold no pointers: a pooled stack keeps nothing
// alive.)
type scratch struct {
	chunks [][]Node // each of chunkLen nodes, but a first one that is the only one
	stack  []frame
}

const (
	chunkBits       = 10
	chunkLen        = 1 << chunkBits // nodes (28 KiB, a size class)
	maxScratch      = 1 << 16        // nodes (1.75 MiB)
	maxScratchDepth = 1 << 10        // frames
)

var scratchPool = sync.Pool{New: func() any {
	// Notebooks nest a handful of levels: the stack rarely grows.
	return &scratch{stack: make([]frame, 0, 16)}
}}

// lastScratch holds one scratch of at most keptChunks chunks across
// collections. sync.Pool drops its items at every collection, and its
// first use after one takes a global lock and allocates its slots for
// each processor: a parse on a heap just collected paid that (2% of the
// cold round trip of a small notebook) and a first chunk of its own. The
// slot serves a program reading one notebook at a time whatever the
// collections in between; parses at the same time find it empty (one of
// them holds its scratch) and take the pool's. It keeps at most
// keptChunks*chunkLen nodes (56 KiB) alive for good.
var lastScratch atomic.Pointer[scratch]

const keptChunks = 2

// getScratch returns the scratch in lastScratch, or one from the pool.
func getScratch() *scratch {
	if lastScratch.Load() != nil {
		if s := lastScratch.Swap(nil); s != nil {
			return s
		}
	}
	return scratchPool.Get().(*scratch)
}

// putScratch puts s (no longer used) in lastScratch if it is empty and s
// small enough, else in the pool.
func putScratch(s *scratch) {
	if len(s.chunks) <= keptChunks && lastScratch.Load() == nil && lastScratch.CompareAndSwap(nil, s) {
		return
	}
	scratchPool.Put(s)
}

// nextChunk moves the recording of nodes to the next chunk, the pooled
// one or a new one, or grows a first chunk shorter than chunkLen (see
// scratch), and returns the index in p.nodes of the next node. (Once per
// chunk: kept out of push.)
//
//go:noinline
func (p *parser) nextChunk() int {
	if n := len(p.nodes); p.cur == 0 && n < chunkLen {
		// To the nodes the whole input would record at the density
		// read so far, and a quarter more, or half as many again as
		// now, whichever is more.
		proj := n
		if read := p.pos - p.start; read > 0 {
			proj = int(int64(n) * int64(len(p.data)-p.start) / int64(read))
		}
		grown := make([]Node, min(chunkLen, max(n+n/2, proj+proj/4+16)))
		copy(grown, p.nodes)
		p.chunks[0] = grown
		p.nodes = grown[:len(p.nodes)]
		return len(p.nodes)
	}
	p.cur++
	p.base += chunkLen
	if p.cur == len(p.chunks) {
		p.chunks = append(p.chunks, make([]Node, chunkLen))
	}
	p.nodes = p.chunks[p.cur][:0]
	return 0
}
