// Package nbread reads the bytes of a notebook from a stream within a size
// limit, refusing early what can never be JSON: package nbformat's reading
// of files and streams, shared with the ipynb command, which reads the
// bytes itself. Never more than limit+1 bytes are read, and memory stays in
// proportion to what was read (at most limit+1 bytes of buffers when the
// input is refused), whether or not the input has a size.
package nbread

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"unicode/utf8"
)

// LimitError reports input larger than the limit (Size: its size when it
// was known before reading, else 0).
type LimitError struct {
	Limit, Size int64
}

func (e *LimitError) Error() string {
	if e.Size > 0 {
		return fmt.Sprintf("file is %d bytes, more than the limit of %d bytes (MaxBytes)", e.Size, e.Limit)
	}
	return fmt.Sprintf("input is more than the limit of %d bytes (MaxBytes)", e.Limit)
}

// Chunk sizes for input without a known size: the first chunk, and the
// largest (so that the unused end of the last chunk stays small).
const (
	firstChunk = 64 << 10
	maxChunk   = 16 << 20
)

// ReadAll reads r to its end, at most limit bytes: more is a *LimitError,
// found having read at most limit+1 bytes. size is the size r is
// expected to have (0: unknown), read with one allocation of size+1
// bytes. Bytes no JSON text holds (a control character other than white
// space, a first significant byte that starts no value) make it call
// refuse with the input read so far, up to and including that byte: a
// non-nil error refuse returns (the parser's error, located before the
// end of the prefix, so that no later byte can change it) is returned at
// once, as it is. A failed read is returned wrapped, as "reading: ...".
func ReadAll(r io.Reader, size, limit int64, refuse func(prefix []byte) error) ([]byte, error) {
	if size > limit {
		return nil, &LimitError{Limit: limit, Size: size}
	}
	rd := reader{refuseIn: refuse, r: r, limit: limit, checking: size == 0, pending: -1}
	if size > 0 {
		// One allocation of the size the file has, plus one byte to see
		// whether it grew; the parser checks these bytes. What a file
		// that grew has beyond them is checked as it is read.
		buf, eof, err := rd.fill(make([]byte, size+1))
		if err == nil && rd.total > limit {
			err = rd.tooBig()
		}
		if err != nil {
			return nil, err
		}
		if eof {
			return buf, nil
		}
		rd.chunks = append(rd.chunks, buf)
		rd.checking, rd.seen = true, true
	}
	next := int64(firstChunk)
	for {
		room := limit + 1 - rd.total
		if room <= 0 {
			return nil, rd.tooBig()
		}
		chunk, eof, err := rd.fill(make([]byte, min(next, room)))
		if err == nil && rd.total > limit {
			err = rd.tooBig()
		}
		if err != nil {
			return nil, err
		}
		rd.chunks = append(rd.chunks, chunk)
		if eof {
			return rd.join(), nil
		}
		next = min(2*next, maxChunk)
	}
}

// reader reads input in chunks, checking each new byte for what can never
// be JSON.
type reader struct {
	refuseIn func(prefix []byte) error
	r        io.Reader
	limit    int64
	chunks   [][]byte // read so far, each chunk full but the last
	total    int64    // bytes in chunks and in the chunk being filled

	checking bool  // check new bytes for what can never be JSON
	seen     bool  // the first byte that is not white space was checked
	pending  int64 // offset of a first byte that starts no value and no ASCII character, or -1
}

func (rd *reader) tooBig() error { return &LimitError{Limit: rd.limit} }

// fill reads into buf until it is full or the input ends (eof), returning
// the part read.
func (rd *reader) fill(buf []byte) (_ []byte, eof bool, err error) {
	n := 0
	for n < len(buf) {
		k, err := rd.r.Read(buf[n:])
		if k > 0 {
			if rd.checking {
				if err := rd.check(buf, n, n+k); err != nil {
					return nil, false, err
				}
			}
			n += k
			rd.total += int64(k)
			if rd.pending >= 0 && rd.total >= rd.pending+utf8.UTFMax {
				// The parser names the character there: refuse once all
				// its bytes can have arrived.
				at := rd.pending + utf8.UTFMax
				rd.pending = -1
				if err := rd.refuse(buf[:n], int(at-(rd.total-int64(n)))-1); err != nil {
					return nil, false, err
				}
			}
		}
		if errors.Is(err, io.EOF) {
			return buf[:n], true, nil
		}
		if err != nil {
			return nil, false, fmt.Errorf("reading: %w", err)
		}
	}
	return buf, false, nil
}

// check looks at the new bytes buf[from:to] for bytes that no JSON text
// holds there: a control character other than white space (anywhere), or
// a first significant byte that starts no value. Such input is refused
// with the error the parser gives for the bytes read so far.
func (rd *reader) check(buf []byte, from, to int) error {
	i := from
	for ; !rd.seen && i < to; i++ {
		switch c := buf[i]; {
		case c == ' ' || c == '\t' || c == '\n' || c == '\r':
		case startsValue(c):
			rd.seen = true
		case c >= utf8.RuneSelf:
			// The start of a character the parser will name, once read.
			rd.seen = true
			rd.pending = rd.total - int64(from) + int64(i)
		default:
			rd.seen = true
			if err := rd.refuse(buf, i); err != nil {
				return err
			}
		}
	}
	for ; i < to; i++ {
		// Eight bytes at a time: none below 0x20 is the common case
		// (hasless from Bit Twiddling Hacks: exact on whether any is).
		for i+8 <= to {
			x := binary.LittleEndian.Uint64(buf[i:])
			if (x-0x2020202020202020)&^x&0x8080808080808080 != 0 {
				break
			}
			i += 8
		}
		if i < to && neverJSON[buf[i]] {
			if err := rd.refuse(buf, i); err != nil {
				return err
			}
		}
	}
	return nil
}

// neverJSON marks the bytes no JSON text holds: control characters other
// than the white space between tokens.
var neverJSON = func() (t [256]bool) {
	for c := range 0x20 {
		t[c] = c != '\t' && c != '\n' && c != '\r'
	}
	return t
}()

// startsValue reports whether a JSON text may start with c (a UTF-8
// byte-order mark starts with 0xEF).
func startsValue(c byte) bool {
	switch c {
	case '{', '[', '"', '-', 't', 'f', 'n', 'N', 'I', 0xEF:
		return true
	}
	return c >= '0' && c <= '9'
}

// refuse returns the parser's error for the input read so far, up to and
// including buf[i] (buf is the chunk being filled), when that error lies
// before the end of what it parsed (so that no later byte could change
// it); nil otherwise.
func (rd *reader) refuse(buf []byte, i int) error {
	prefix := buf[:i+1]
	if len(rd.chunks) > 0 {
		prefix = nil
		for _, c := range rd.chunks {
			prefix = append(prefix, c...)
		}
		prefix = append(prefix, buf[:i+1]...)
	}
	return rd.refuseIn(prefix)
}

// join returns the chunks as one slice.
func (rd *reader) join() []byte {
	if len(rd.chunks) == 1 {
		return rd.chunks[0]
	}
	data := make([]byte, 0, rd.total)
	for _, c := range rd.chunks {
		data = append(data, c...)
	}
	return data
}

// A Parse parses a prefix of the input and reports the offset of the
// parser's error, whether it is about a size limit, and the error (nil if
// none).
type Parse func(prefix []byte) (offset int64, sizeLimit bool, err error)

// ReadParsed is ReadAll for the input of a parser (package nbformat's, for
// itself and the ipynb command): a prefix ReadAll refuses is parsed, and
// the parser's error is returned, as it is, when it is final: at a byte of
// the prefix (no later byte can change it) and not about a size limit.
// Input over the limit is the error tooBig makes of its *LimitError; a
// failed read is wrapped as "nbformat: reading: ...".
func ReadParsed(r io.Reader, size, limit int64, parse Parse, tooBig func(*LimitError) error) ([]byte, error) {
	var refused error
	data, err := ReadAll(r, size, limit, func(prefix []byte) error {
		offset, sizeLimit, perr := parse(prefix)
		if perr != nil && !sizeLimit && offset < int64(len(prefix)) {
			refused = perr
			return perr
		}
		refused = nil
		return nil
	})
	var le *LimitError
	switch {
	case err == nil:
		return data, nil
	case refused != nil:
		return nil, refused
	case errors.As(err, &le):
		return nil, tooBig(le)
	}
	return nil, fmt.Errorf("nbformat: %w", err)
}
