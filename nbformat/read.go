package nbformat

// ReadFile and Read: reading a file or stream within the limits, refusing
// what cannot be JSON early.

import (
	"encoding/binary"
	"errors"
	"fmt"
	"io"
	"os"
	"unicode/utf8"
)

// Reading notebooks from files and streams, with MaxBytes enforced while
// reading: never more than MaxBytes+1 bytes are read, and memory stays in
// proportion to what was read (at most MaxBytes+1 bytes of buffers when
// the input is refused), whether or not the input has a size.

// ReadFile reads the notebook in the named file with default limits. See
// [UnmarshalOptions.ReadFile].
func ReadFile(name string) (*Notebook, error) { return UnmarshalOptions{}.ReadFile(name) }

// ReadFile reads the notebook in the named file. A regular file larger than
// MaxBytes is refused before anything is read; other files (pipes,
// devices) are read as [UnmarshalOptions.Read] reads. Errors name the
// file.
func (o UnmarshalOptions) ReadFile(name string) (*Notebook, error) {
	data, err := o.readBytes(name)
	if err != nil {
		return nil, err
	}
	nb, err := o.unmarshal(data)
	if err != nil {
		return nil, withFile(name, err)
	}
	return nb, nil
}

// Read reads a notebook from r to its end. It enforces MaxBytes while
// reading: at most MaxBytes+1 bytes are read, and more is refused with a
// [*SyntaxError] for which errors.Is(err, ErrLimit) holds, the buffers
// never holding more than MaxBytes+1 bytes. Input that can never be JSON
// is refused as soon as it is read, with the [*SyntaxError] Unmarshal
// would report: a control character (such as the NUL bytes of /dev/zero)
// or a first value that no JSON value starts with; reading endless input
// of that kind stops at once.
func (o UnmarshalOptions) Read(r io.Reader) (*Notebook, error) {
	data, err := o.readAll(r, 0)
	if err != nil {
		return nil, err
	}
	return o.unmarshal(data)
}

// readBytes reads the named file. A regular file larger than MaxBytes is
// refused before reading it, and is read with one allocation of its size;
// a file that grows while it is read, and files without a size (pipes,
// character devices such as /dev/zero), are read as [UnmarshalOptions.Read]
// reads. Errors name the file.
func (o UnmarshalOptions) readBytes(name string) ([]byte, error) {
	f, err := os.Open(name)
	if err != nil {
		return nil, fmt.Errorf("nbformat: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("nbformat: %w", err)
	}
	var size int64
	if fi.Mode().IsRegular() {
		size = fi.Size()
	}
	data, err := o.readAll(f, size)
	if err != nil {
		return nil, withFile(name, err)
	}
	return data, nil
}

// Chunk sizes for input without a known size: the first chunk, and the
// largest (so that the unused end of the last chunk stays small).
const (
	firstChunk = 64 << 10
	maxChunk   = 16 << 20
)

// readAll reads r to its end. size is the expected size (0: unknown).
func (o UnmarshalOptions) readAll(r io.Reader, size int64) ([]byte, error) {
	limit := o.maxBytes()
	if size > limit {
		return nil, &SyntaxError{Offset: limit, Msg: fmt.Sprintf("file is %d bytes, more than the limit of %d bytes (MaxBytes)", size, limit), Limit: true}
	}
	rd := reader{o: o, r: r, limit: limit, checking: size == 0, pending: -1}
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
	o      UnmarshalOptions
	r      io.Reader
	limit  int64
	chunks [][]byte // read so far, each chunk full but the last
	total  int64    // bytes in chunks and in the chunk being filled

	checking bool  // check new bytes for what can never be JSON
	seen     bool  // the first byte that is not white space was checked
	pending  int64 // offset of a first byte that starts no value and no ASCII character, or -1
}

func (rd *reader) tooBig() error {
	return &SyntaxError{Offset: rd.limit, Msg: fmt.Sprintf("input is more than the limit of %d bytes (MaxBytes)", rd.limit), Limit: true}
}

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
			return nil, false, fmt.Errorf("nbformat: reading: %w", err)
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

func (rd *reader) refuseIn(prefix []byte) error {
	_, err := rd.o.unmarshal(prefix)
	var se *SyntaxError
	if errors.As(err, &se) && !se.Limit && se.Offset < int64(len(prefix)) {
		return se
	}
	return nil
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
