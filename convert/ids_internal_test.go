package convert

import (
	"fmt"
	"math/rand/v2"
	"testing"

	"github.com/nbdialog/ipynb/nbformat"
)

// Up to idScan cells, idsOf answers seen and taken as scanning the
// messages given before and the cells' ids does (its filters only spare
// scans): for random notebooks of ids drawn from a small pool (repeats,
// empty ids, ids of one length and of several, ids that share the bytes
// the filter mixes), for every message and every id of the pool.
func TestIDsFilterAsScan(t *testing.T) {
	t.Parallel()
	rng := rand.New(rand.NewPCG(1, 2))
	for trial := range 3000 {
		n := 1 + rng.IntN(idScan)
		var pool []string
		for k := range 1 + rng.IntN(2*n) {
			switch k % 4 {
			case 0:
				pool = append(pool, fmt.Sprintf("%08x", rng.Uint32()))
			case 1:
				pool = append(pool, fmt.Sprintf("c%d", k))
			case 2:
				pool = append(pool, fmt.Sprintf("a%cb%cc", 'a'+rng.IntN(3), 'a'+rng.IntN(3)))
			default:
				pool = append(pool, "")
			}
		}
		cells := make([]nbformat.Cell, n)
		msgs := make([]readCell, n)
		for i := range n {
			cells[i] = &nbformat.CodeCell{ID: nbformat.CellID(pool[rng.IntN(len(pool))])}
			msgs[i].msg.ID = pool[rng.IntN(len(pool))]
		}
		s := idsOf{n: n, cells: cells, fileIDs: trial%2 == 0, msgs: msgs}
		for i := range n {
			for _, id := range pool {
				seen := false
				for j := range i {
					seen = seen || msgs[j].msg.ID == id
				}
				taken := seen
				for _, c := range cells {
					taken = taken || s.fileIDs && string(nbformat.CellIDOf(c)) == id
				}
				if got := s.seen(i, id); got != seen {
					t.Fatalf("trial %d, message %d, id %q: seen %v, want %v", trial, i, id, got, seen)
				}
				if got := s.taken(i, id); got != taken {
					t.Fatalf("trial %d, message %d, id %q: taken %v, want %v", trial, i, id, got, taken)
				}
			}
			s.given(msgs[i].msg.ID)
		}
	}
}
