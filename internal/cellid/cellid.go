// Package cellid is the one home of the cell-id rules the module's
// packages share: what a valid id is (nbformat 4.5) and how an id is
// derived for a cell that lacks one, so that the same notebook always gets
// the same ids.
package cellid

import (
	"encoding/binary"
	"encoding/hex"
	"hash/crc32"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/internal/zerocopy"
)

// Valid reports whether id is a valid nbformat 4.5 cell id: 1 to 64
// characters from a–z, A–Z, 0–9, "-" and "_".
func Valid(id string) bool {
	if len(id) == 0 || len(id) > 64 {
		return false
	}
	for i := 0; i < len(id); i++ {
		c := id[i]
		if !('a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '-' || c == '_') {
			return false
		}
	}
	return true
}

// Derive returns an id for the cell at position i of the given kind and
// content: the CRC-32C (Castagnoli) of "<i>\x00<kind>\x00<content>" as 8
// hex digits; while taken reports a candidate as used, the next is the
// CRC-32C of those bytes followed by a counter k = 1, 2, ... (4 bytes,
// little-endian). The same cell at the same place always gets the same id.
//
// An id only has to be stable and rarely repeated (position is part of
// the input, and repeats are settled by taken): a checksum the processor
// computes 8 bytes at a time does that at ~16 GB/s, where SHA-256 (the
// rule before) cost a tenth of reading a small notebook without ids. The
// candidates never repeat: for a fixed prefix, the CRC of 4 more bytes is
// a bijection of those bytes, so the counter runs through every 32-bit id
// before coming back, and the loop ends while fewer are taken.
func Derive(i int, kind, content string, taken func(string) bool) string {
	var b strings.Builder
	b.Grow(8)
	return DeriveInto(&b, i, kind, content, taken)
}

// DeriveInto is Derive, the id written to b (8 bytes) and returned as the
// part of b's string written (never changed afterwards: a strings.Builder
// only appends), so that the ids of a whole notebook can share one
// buffer. The candidates taken rejects (rare) stay in b, unused.
func DeriveInto(b *strings.Builder, i int, kind, content string, taken func(string) bool) string {
	var head [24]byte
	sum := updateShort(0, append(strconv.AppendInt(head[:0], int64(i), 10), 0))
	sum = crc32.Update(sum, castagnoli, readOnlyBytes(kind))
	sum = updateShort(sum, []byte{0})
	sum = crc32.Update(sum, castagnoli, readOnlyBytes(content))
	cand := sum
	for k := uint32(1); ; k++ {
		var be [4]byte
		var id [8]byte
		binary.BigEndian.PutUint32(be[:], cand)
		hex.Encode(id[:], be[:])
		start := b.Len()
		b.Write(id[:])
		if s := b.String()[start:]; !taken(s) {
			return s
		}
		var next [4]byte
		binary.LittleEndian.PutUint32(next[:], k)
		cand = updateShort(sum, next[:])
	}
}

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// updateShort is crc32.Update(crc, castagnoli, p) a byte at a time, for
// the few bytes of a position, a separator or a counter: crc32.Update
// calls its implementation through a function value, so a slice passed to
// it escapes, and one on the stack would be allocated for every id.
func updateShort(crc uint32, p []byte) uint32 {
	crc = ^crc
	for _, c := range p {
		crc = castagnoli[byte(crc)^c] ^ crc>>8
	}
	return ^crc
}

// readOnlyBytes returns s's bytes without copying them (see
// zerocopy.Bytes). Safe because the only callee, crc32.Update, reads its
// argument and keeps no reference to it (a checksum), so the string's
// immutable bytes are never written.
func readOnlyBytes(s string) []byte { return zerocopy.Bytes(s) }

// Written reports whether the cells of a notebook of version major.minor
// carry an id member: from nbformat 4.5 on, where the schema requires one
// (and Python nbformat writes one, empty or not).
func Written(major, minor int) bool { return major > 4 || major == 4 && minor >= 5 }

// Problem reports whether a schema problem of a notebook, at pointer with
// the keyword and member of an nbformat.ValidationError, is about the id
// of a cell (a missing id, or a bad or repeated one) and, if so, the index
// of that cell.
func Problem(pointer, keyword, member string) (cell int, ok bool) {
	rest, found := strings.CutPrefix(pointer, "/cells/")
	if !found {
		return 0, false
	}
	index, tail, _ := strings.Cut(rest, "/")
	switch {
	case tail == "" && !strings.Contains(rest, "/"):
		if keyword != "required" || member != "id" {
			return 0, false
		}
	case tail != "id":
		return 0, false
	}
	i, err := strconv.Atoi(index)
	if err != nil || i < 0 || index != strconv.Itoa(i) {
		return 0, false
	}
	return i, true
}
