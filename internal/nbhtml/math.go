package nbhtml

import (
	"sync/atomic"

	"github.com/yuin/goldmark/ast"
	"github.com/yuin/goldmark/parser"
	"github.com/yuin/goldmark/text"
)

// Math in Markdown ($…$ inline, $$…$$ displayed, as Jupyter reads it) is
// kept out of Markdown's reach, as Jupyter's remove_math does, so that
// its _ and * are not taken for emphasis, and shown as its TeX source
// (the page loads no MathJax). An inline $ opens math only before a
// character that is not a space, and closes it only after one that is
// not a space and before one that is not a digit (pandoc's rule, so
// that "$5 and $10" stay prices); $$ opens and closes displayed math
// anywhere. Math may span the lines of a paragraph.
//
// Parsing is linear in the paragraph: a $ (or $$) that finds no closer
// before the paragraph ends is remembered (failedMath), and a later one
// of the same size in the same stretch opens nothing without scanning
// again — whether a $ closes depends only on its neighbours and on the
// escapes after the opener, so what found no closer from an earlier
// opener finds none from a later one ("$a $a $a …" was quadratic).

// kindMath is the kind of mathNode.
var kindMath = ast.NewNodeKind("Math")

// mathNode is math, with its TeX source as written (delimiters included).
type mathNode struct {
	ast.BaseInline
	tex     []byte
	display bool
}

func (n *mathNode) Kind() ast.NodeKind { return kindMath }

func (n *mathNode) Dump(source []byte, level int) {
	ast.DumpHelper(n, source, level, map[string]string{"TeX": string(n.tex)}, nil)
}

// mathParser is the inline parser of math.
type mathParser struct{}

func (mathParser) Trigger() []byte { return []byte{'$'} }

// mathWork counts the bytes math parsing scans (for tests of its
// scaling).
var mathWork atomic.Int64

// rememberFailedMath is off only in a test that compares the results
// with and without the memory.
var rememberFailedMath = true

// failedMathKey keeps, in a parse's context, the stretches of source
// from an opener that found no closer to its paragraph's end.
var failedMathKey = parser.NewContextKey()

// failedMath is such a stretch, for $ (index 1) and $$ (index 2):
// openers inside [start, end) of the source close nothing.
type failedMath [3]struct{ start, end int }

func (mathParser) Parse(parent ast.Node, block text.Reader, pc parser.Context) ast.Node {
	line, _ := block.PeekLine()
	delim := 1
	if len(line) > 1 && line[1] == '$' {
		delim = 2
	}
	if delim == 1 && (len(line) < 2 || line[1] == ' ' || line[1] == '\t' || line[1] == '\n') {
		return nil
	}
	l, pos := block.Position()
	failed, _ := pc.Get(failedMathKey).(*failedMath)
	if failed != nil && rememberFailedMath && failed[delim].start < pos.Start && pos.Start < failed[delim].end {
		return nil
	}
	var tex []byte
	tex = append(tex, line[:delim]...)
	block.Advance(delim)
	end := pos.Start
	for {
		line, seg := block.PeekLine()
		if line == nil {
			block.SetPosition(l, pos)
			if failed == nil {
				failed = &failedMath{}
				pc.Set(failedMathKey, failed)
			}
			failed[delim].start, failed[delim].end = pos.Start, end
			return nil
		}
		end = seg.Stop
		for i := 0; i < len(line); i++ {
			switch c := line[i]; {
			case c == '\\' && i+1 < len(line):
				i++ // \$ is not a delimiter
			case c == '$' && delim == 2:
				if i+1 < len(line) && line[i+1] == '$' {
					tex = append(tex, line[:i+2]...)
					mathWork.Add(int64(i + 2))
					block.Advance(i + 2)
					return &mathNode{tex: tex, display: true}
				}
			case c == '$':
				prev := byte(' ')
				if i > 0 {
					prev = line[i-1]
				} else if len(tex) > 1 {
					prev = tex[len(tex)-1]
				}
				next := byte(' ')
				if i+1 < len(line) {
					next = line[i+1]
				}
				if prev != ' ' && prev != '\t' && prev != '\n' && (next < '0' || next > '9') {
					tex = append(tex, line[:i+1]...)
					mathWork.Add(int64(i + 1))
					block.Advance(i + 1)
					return &mathNode{tex: tex}
				}
			}
		}
		tex = append(tex, line...)
		mathWork.Add(int64(len(line)))
		block.AdvanceLine()
	}
}
