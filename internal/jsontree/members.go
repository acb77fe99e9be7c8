package jsontree

// The lookup of a member's shape by its key, once per member of every
// recorded object: a perfect hash of the keys of a Shape's Members, built
// at the shape's first use, looks at four bytes of a key and compares it
// once (a Go map hashes every byte, and was an eighth of a notebook's
// parse).

// A memberIndex holds each key of Members in the slot its hash names,
// no two in one slot, so that a key that is not in its slot is not a
// member. A nil slots means Members has keys no seed separates: the map
// is used.
type memberIndex struct {
	seed  uint32
	mask  uint32
	slots []memberSlot
}

type memberSlot struct {
	key   string
	shape *Shape
	used  bool
}

// keyHash mixes a key's length and its first, middle and last bytes.
func keyHash(k string, seed uint32) uint32 {
	h := uint32(len(k))*0x9E3779B1 ^ seed
	if n := len(k); n > 0 {
		h ^= uint32(k[0])*0x85EBCA6B ^ uint32(k[n/2])*0xC2B2AE35 ^ uint32(k[n-1])*0x27D4EB2F
	}
	h ^= h >> 15
	h *= 0x2C1B3C6D
	return h ^ h>>13
}

// maxIndexed is the most members a perfect hash is looked for (a few
// tries find one for notebooks' shapes, of a dozen or two).
const maxIndexed = 64

// newMemberIndex returns the index of members: the smallest table (from
// twice their number of slots to 16 times) and seed that give each key
// its own slot.
func newMemberIndex(members map[string]*Shape) *memberIndex {
	if len(members) > maxIndexed {
		return &memberIndex{}
	}
	size := uint32(4)
	for size < 2*uint32(len(members)) {
		size *= 2
	}
	for ; size <= 16*max(4, uint32(len(members))); size *= 2 {
		slots := make([]memberSlot, size)
	seeds:
		for seed := uint32(0); seed < 64; seed++ {
			clear(slots)
			for k, s := range members {
				slot := &slots[keyHash(k, seed)&(size-1)]
				if slot.used {
					continue seeds
				}
				*slot = memberSlot{key: k, shape: s, used: true}
			}
			return &memberIndex{seed: seed, mask: size - 1, slots: slots}
		}
	}
	return &memberIndex{}
}

// lookup returns the shape of the member with the (unescaped) key k, and
// whether Members has it.
func (s *Shape) lookup(k string) (*Shape, bool) {
	x := s.index.Load()
	if x == nil {
		x = newMemberIndex(s.Members)
		s.index.Store(x) // another parse may store its own, equal one
	}
	if x.slots == nil {
		m, ok := s.Members[k]
		return m, ok
	}
	slot := &x.slots[keyHash(k, x.seed)&x.mask]
	if slot.used && slot.key == k {
		return slot.shape, true
	}
	return nil, false
}
