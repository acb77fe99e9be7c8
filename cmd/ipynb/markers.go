package main

import (
	"bytes"
	"fmt"
	"io"
	"slices"
)

// Git's textual conflict markers, as a merge without a driver writes
// them into a notebook's JSON:
//
//	<<<<<<< OURS-LABEL
//	ours' lines
//	||||||| BASE-LABEL      (diff3 and zdiff3 styles only)
//	the base's lines
//	=======
//	theirs' lines
//	>>>>>>> THEIRS-LABEL
//
// A marker is a line starting with the marker character repeated the
// marker size (7 unless conflict-marker-size says otherwise), followed by
// a space or the end of the line. No line of a JSON text starts with '<',
// '|', '=' or '>', so in a notebook they cannot be mistaken for content.

// conflictSides is a file with conflict markers split into its sides'
// texts: the lines outside the conflicts, with each conflict's lines of
// that side.
type conflictSides struct {
	hunks      int // number of conflicts
	markerSize int
	// The sides' texts; base is nil unless every conflict has a base
	// section.
	ours, theirs, base side
	// The labels after the first conflict's markers ("HEAD", a branch).
	oursLabel, baseLabel, theirsLabel string
}

// side is the text of one side with, for each of its lines, the line of
// the file it came from (1-based), to report errors where the user sees
// them: kept as runs of lines that follow each other in both (a few per
// conflict, not a number per line).
type side struct {
	text []byte
	n    int       // its lines
	runs []lineRun // in order of side line
	// A side made when asked (see take) has no text until then, but its
	// pieces: runs of ours' text in place and of copies of its own lines.
	lazy   bool
	pieces []piece
	own    []byte // the lines ours does not hold, copied
	size   int
}

// A piece of a side made when asked: bytes start to end of ours' text, or
// of the side's own copies.
type piece struct {
	ours       bool
	start, end int
}

// addLazy adds line n of the file to a side made when asked: held by ours
// at offset at of ours' text (inOurs), or copied.
func (s *side) addLazy(line []byte, n int, inOurs bool, at int) {
	s.n++
	if k := len(s.runs); k == 0 || s.runs[k-1].file+(s.n-s.runs[k-1].side) != n {
		s.runs = append(s.runs, lineRun{s.n, n})
	}
	s.size += len(line)
	p := piece{ours: inOurs, start: at, end: at + len(line)}
	if !inOurs {
		p.start = len(s.own)
		s.own = append(s.own, line...)
		p.end = len(s.own)
	}
	if k := len(s.pieces); k > 0 && s.pieces[k-1].ours == p.ours && s.pieces[k-1].end == p.start {
		s.pieces[k-1].end = p.end
		return
	}
	s.pieces = append(s.pieces, p)
}

// take returns the side's text and lets it go (the side keeps its line
// numbers): made now, from ours' text, if the side is made when asked.
func (s *side) take(ours *side) []byte {
	text := s.make(ours)
	s.lazy, s.pieces, s.own = false, nil, nil
	s.text = nil
	return text
}

// make returns the side's text, made now from ours' text if the side is
// made when asked (which it still is afterwards: a side made when asked
// holds only its own lines, not its text).
func (s *side) make(ours *side) []byte {
	if !s.lazy {
		return s.text
	}
	text := make([]byte, 0, s.size)
	for _, p := range s.pieces {
		from := s.own
		if p.ours {
			from = ours.text
		}
		text = append(text, from[p.start:p.end]...)
	}
	return text
}

// reader reads the side's text: made as it is read, from ours' text, if
// the side is made when asked (which it still is afterwards).
func (s *side) reader(ours *side) io.Reader {
	if !s.lazy {
		return bytes.NewReader(s.text)
	}
	rs := make([]io.Reader, len(s.pieces))
	for i, p := range s.pieces {
		from := s.own
		if p.ours {
			from = ours.text
		}
		rs[i] = bytes.NewReader(from[p.start:p.end])
	}
	return io.MultiReader(rs...)
}

// compactOurs gives ours' text, split out in the file's place, a place of
// its own size when the file is half as large again as it (its conflicts'
// other sides), so that the file is let go.
func (cs *conflictSides) compactOurs() {
	if t := cs.ours.text; cap(t) >= len(t)+len(t)/2 {
		cs.ours.text = bytes.Clone(t)
	}
}

// has reports whether the side has a text (made or to be made).
func (s *side) has() bool { return s.text != nil || s.lazy }

// A lineRun is a run of the side's lines, from side line side on, that
// are the file's lines from file line file on.
type lineRun struct{ side, file int }

func (s *side) add(line []byte, n int) {
	s.text = append(s.text, line...)
	s.n++
	if k := len(s.runs); k == 0 || s.runs[k-1].file+(s.n-s.runs[k-1].side) != n {
		s.runs = append(s.runs, lineRun{s.n, n})
	}
}

// fileLine is the line of the file holding line n (1-based) of the side
// (its first or last line for a line before or after them).
func (s *side) fileLine(n int) int {
	if s.n == 0 {
		return 0
	}
	n = min(max(n, 1), s.n)
	i, found := slices.BinarySearchFunc(s.runs, n, func(r lineRun, n int) int { return r.side - n })
	if !found {
		i--
	}
	r := s.runs[i]
	return r.file + n - r.side
}

// markerError is a conflict marker out of place.
type markerError struct {
	Line int // 1-based
	Msg  string
}

func (e *markerError) Error() string { return fmt.Sprintf("%d: %s", e.Line, e.Msg) }

// markerKind tells whether line is a conflict marker of size n (n 0: of
// any size of at least 7, before the first conflict sets the size),
// returning the marker's character, its size and its label.
func markerKind(line []byte, n int) (kind byte, size int, label string) {
	line = bytes.TrimSuffix(bytes.TrimSuffix(line, []byte("\n")), []byte("\r"))
	if len(line) == 0 {
		return 0, 0, ""
	}
	c := line[0]
	if c != '<' && c != '|' && c != '=' && c != '>' {
		return 0, 0, ""
	}
	k := 0
	for k < len(line) && line[k] == c {
		k++
	}
	if n == 0 && k < 7 || n != 0 && k != n {
		return 0, 0, ""
	}
	rest := line[k:]
	if len(rest) > 0 && rest[0] != ' ' {
		return 0, 0, ""
	}
	if c == '=' && len(rest) > 0 {
		return 0, 0, "" // "=======" carries no label
	}
	return c, k, string(bytes.TrimPrefix(rest, []byte(" ")))
}

// splitConflicts splits data at its conflict markers. A file without
// markers gives hunks 0 (and ours = theirs = data). Markers out of order
// or a conflict left open are a *markerError.
func splitConflicts(data []byte) (*conflictSides, error) { return splitSides(data, false) }

// splitConflictsOwned is splitConflicts of data that the caller gives
// away: ours' text is made in data's place (a side's lines are in the
// file's order, so each is moved back, never past a line still to be
// read), and data holds it afterwards when there are conflicts (without
// any, data is unchanged). Theirs' and the base's texts are made when
// asked (side.take), from ours' text and copies of their conflicts'
// parts, so that they need not be in memory at once.
func splitConflictsOwned(data []byte) (*conflictSides, error) { return splitSides(data, true) }

// splitSides splits data in two passes: the first checks the markers and
// measures the sides, the second copies each side's lines into a text of
// exactly its size (the base only when every conflict has a base
// section); ours' text is data's place when owned, and the lines of
// theirs and the base that ours does not hold are copied into texts of
// exactly their size (not grown by appending: a conflict-heavy file's
// sides are as large as ours).
func splitSides(data []byte, owned bool) (*conflictSides, error) {
	var size, own [3]int // ours, theirs, base; own: the lines ours does not hold
	cs, allBase, err := eachSideLine(data, func(line []byte, _ int, ours, theirs, base bool) {
		for i, in := range [3]bool{ours, theirs, base} {
			if in {
				size[i] += len(line)
				if !ours {
					own[i] += len(line)
				}
			}
		}
	})
	if err != nil || cs.hunks == 0 {
		if err == nil {
			cs.ours.text, cs.theirs.text = data, data
		}
		return cs, err
	}
	sides := &conflictSides{}
	if owned {
		sides.ours.text = data[:0]
		sides.theirs.lazy, sides.base.lazy = true, allBase
		sides.theirs.own = make([]byte, 0, own[1])
		if allBase {
			sides.base.own = make([]byte, 0, own[2])
		}
		eachSideLine(data, func(line []byte, n int, ours, theirs, base bool) {
			// (Ours last: its text may take the place of this very line.)
			at := len(sides.ours.text)
			if theirs {
				sides.theirs.addLazy(line, n, ours, at)
			}
			if base && allBase {
				sides.base.addLazy(line, n, ours, at)
			}
			if ours {
				sides.ours.add(line, n)
			}
		})
		cs.ours, cs.theirs, cs.base = sides.ours, sides.theirs, sides.base
		return cs, nil
	}
	sides.theirs.text = make([]byte, 0, size[1])
	if allBase {
		sides.base.text = make([]byte, 0, size[2])
	}
	sides.ours.text = make([]byte, 0, size[0])
	eachSideLine(data, func(line []byte, n int, ours, theirs, base bool) {
		// (Ours last: its text may take the place of this very line.)
		if theirs {
			sides.theirs.add(line, n)
		}
		if base && allBase {
			sides.base.add(line, n)
		}
		if ours {
			sides.ours.add(line, n)
		}
	})
	cs.ours, cs.theirs = sides.ours, sides.theirs
	if allBase {
		cs.base = sides.base
	}
	return cs, nil
}

// eachSideLine goes through data's lines, checking its conflict markers,
// and hands each line that is not a marker (with its 1-based line number)
// to add, saying which sides hold it: the lines outside the conflicts
// are every side's, those of a conflict's part its side's. It returns the
// markers found (the sides' texts not set) and whether every conflict has
// a base section.
func eachSideLine(data []byte, add func(line []byte, n int, ours, theirs, base bool)) (*conflictSides, bool, error) {
	cs := &conflictSides{}
	const (
		outside = iota
		inOurs
		inBase
		inTheirs
	)
	state, opened := outside, 0
	allBase := true
	n := 0
	for rest := data; len(rest) > 0; {
		line := rest
		if i := bytes.IndexByte(rest, '\n'); i >= 0 {
			line = rest[:i+1]
		}
		rest = rest[len(line):]
		n++
		kind, size, label := markerKind(line, cs.markerSize)
		switch {
		case kind == '<' && state == outside:
			if cs.markerSize == 0 {
				cs.markerSize = size
				cs.oursLabel = label
			}
			state, opened = inOurs, n
			cs.hunks++
			continue
		case kind == '|' && state == inOurs:
			if cs.hunks == 1 {
				cs.baseLabel = label
			}
			state = inBase
			continue
		case kind == '=' && (state == inOurs || state == inBase):
			if state == inOurs {
				allBase = false
			}
			state = inTheirs
			continue
		case kind == '>' && state == inTheirs:
			if cs.hunks == 1 {
				cs.theirsLabel = label
			}
			state = outside
			continue
		case kind != 0:
			what := map[byte]string{'<': "opening", '|': "base", '=': "separator", '>': "closing"}[kind]
			where := map[int]string{outside: "outside a conflict", inOurs: "in ours' part", inBase: "in the base's part", inTheirs: "in theirs' part"}[state]
			return nil, false, &markerError{Line: n, Msg: fmt.Sprintf("conflict %s marker %s (conflict opened at line %d)", what, where, opened)}
		}
		add(line, n, state == outside || state == inOurs, state == outside || state == inTheirs, state == outside || state == inBase)
	}
	if state != outside {
		return nil, false, &markerError{Line: n, Msg: fmt.Sprintf("the conflict opened at line %d is not closed at the end of the file", opened)}
	}
	return cs, cs.hunks > 0 && allBase, nil
}
