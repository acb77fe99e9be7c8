// Package cellid is the one home of the cell-id rules the module's
// packages share: what a valid id is (nbformat 4.5) and how an id is
// derived for a cell that lacks one, so that the same notebook always gets
// the same ids.
package cellid

import (
	"crypto/sha256"
	"encoding/hex"
	"strconv"
	"strings"
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
// content: 8 hex digits of a SHA-256 hash of the three, rehashed while
// taken reports the id as used. The same cell at the same place always
// gets the same id.
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
	var sum [sha256.Size]byte
	// The bytes hashed: "<i>\x00<kind>\x00<content>". Short ones are
	// hashed from a buffer on the stack (most cells), longer ones in
	// pieces, never copied whole.
	var buf [512]byte
	head := strconv.AppendInt(buf[:0], int64(i), 10)
	head = append(head, 0)
	if len(head)+len(kind)+1+len(content) <= len(buf) {
		b := append(head, kind...)
		b = append(b, 0)
		b = append(b, content...)
		sum = sha256.Sum256(b)
	} else {
		h := sha256.New()
		h.Write(head)
		for len(kind) > 0 { // (a kind is a short word; any length is hashed)
			n := copy(buf[:], kind)
			h.Write(buf[:n])
			kind = kind[n:]
		}
		h.Write([]byte{0})
		for len(content) > 0 {
			n := copy(buf[:], content)
			h.Write(buf[:n])
			content = content[n:]
		}
		h.Sum(sum[:0])
	}
	var id [8]byte
	for {
		hex.Encode(id[:], sum[:4])
		start := b.Len()
		b.Write(id[:])
		if s := b.String()[start:]; !taken(s) {
			return s
		}
		sum = sha256.Sum256(sum[:])
	}
}

// Written reports whether the cells of a notebook of version major.minor
// carry an id member: from nbformat 4.5 on, where the schema requires one
// (and Python nbformat writes one, empty or not).
func Written(major, minor int) bool { return major > 4 || major == 4 && minor >= 5 }
