package draft04

import (
	"github.com/nbdialog/ipynb/internal/jsontree"
)

// Verdicts known at compile time. Many schemas decide every value of some
// class without looking at it: the multiline_string oneOf takes every
// string and every array of strings, an execution count's
// {"type": ["integer", "null"], "minimum": 0} takes every null, output
// metadata's {"type": "object"} takes every object. Compiling works out,
// for each schema and each class of values, whether the schema accepts
// every value of the class (yes), rejects every one (no), or must look
// (look); validating a value then begins with its class's verdict and
// goes no further on a yes. A "no" ends a check only when nothing is
// reported (problems need the full check to be explained).
//
// The verdict is exact: it is yes only where every keyword of the schema
// (through its combinations) accepts every value of the class, no only
// where some keyword rejects every one.

// A class of values, as told by a tape node alone.
type class uint8

const (
	cNull class = iota
	cBool
	cInt
	cNum     // a number that is not an integer
	cStr     // any string
	cObj     // any object (lazy or not)
	cArr     // any array (lazy or not)
	cStrings // a lazy array of strings (FlagStrings): its items, all strings, are known without reading them
	nClasses
)

// classBits are the type bits of each class's values.
var classBits = [nClasses]uint8{
	cNull: tNull, cBool: tBoolean, cInt: tNumber | tInteger, cNum: tNumber,
	cStr: tString, cObj: tObject, cArr: tArray, cStrings: tArray,
}

// A verdict of a schema on a class of values.
type verdict int8

const (
	look verdict = iota // depends on the value
	yes                 // every value of the class is valid
	no                  // every value of the class is invalid
)

// classOf returns the class of node i.
func (v *validator) classOf(i int) class {
	nd := &v.t.Nodes[i]
	return classTable[nd.Kind&7][nd.Flags]
}

// classTable holds the class of every node kind and flags (a table
// rather than branches, which the kinds of a notebook's values, changing
// from one node to the next, would mispredict).
var classTable = func() (tab [8][256]class) {
	for k := range tab {
		for f := range tab[k] {
			tab[k][f] = classOfNode(jsontree.Kind(k), uint8(f))
		}
	}
	return tab
}()

// classOfNode returns the class of a node of kind k with flags f.
func classOfNode(k jsontree.Kind, f uint8) class {
	switch k {
	case jsontree.Null:
		return cNull
	case jsontree.True, jsontree.False:
		return cBool
	case jsontree.Number:
		if f&jsontree.FlagInt != 0 {
			return cInt
		}
		return cNum
	case jsontree.String:
		return cStr
	case jsontree.Object:
		return cObj
	}
	if f&(jsontree.FlagLazy|jsontree.FlagStrings) == jsontree.FlagLazy|jsontree.FlagStrings {
		return cStrings
	}
	return cArr
}

// setVerdicts sets the verdicts of n and every schema below it (once
// finish has run); it returns how many it worked out.
func setVerdicts(n *node, done map[*node]bool) int {
	if n == nil || done[n] {
		return 0
	}
	done[n] = true
	var w verdictWork
	var walk func(n *node)
	walk = func(n *node) {
		for c := range class(nClasses) {
			n.verdicts[c] = w.of(n, c)
		}
		for _, s := range children(n) {
			if !done[s] {
				done[s] = true
				walk(s)
			}
		}
	}
	walk(n)
	return w.computed
}

// verdictWork is the state of working out verdicts, kept in the schemas
// themselves (a compile is one goroutine's, and works them out once): the
// schemas being worked out (node.vBusy: a schema that reaches itself must
// look), and the verdicts found (node.verdicts, node.vKnown), each worked
// out once (so that schemas sharing subschemas cost no more than their
// number: a verdict found while another was being worked out is sound all
// the same, look standing for what was not known).
type verdictWork struct {
	computed int // verdicts worked out (tests)
}

// (node.vKnown has a bit per class.)
const _ = uint8(1 << (nClasses - 1))

func (w *verdictWork) of(n *node, c class) verdict {
	n = deref(n)
	if n.vKnown&(1<<c) != 0 {
		return n.verdicts[c]
	}
	w.computed++
	v := verdictOf(n, c, w)
	n.verdicts[c] = v
	n.vKnown |= 1 << c
	return v
}

// children returns the schemas directly below n.
func children(n *node) []*node {
	out := append([]*node(nil), n.props.nodes...)
	for _, pp := range n.patProps {
		out = append(out, pp.n)
	}
	out = append(out, n.itemsList...)
	out = append(out, n.allOf...)
	for _, c := range []*choice{n.oneOf, n.anyOf} {
		if c != nil {
			out = append(out, c.branches...)
		}
	}
	for _, s := range []*node{n.addl, n.items, n.not, n.refNode} {
		if s != nil {
			out = append(out, s)
		}
	}
	return out
}

// verdictOf works out n's verdict on class c.
func verdictOf(n *node, c class, w *verdictWork) verdict {
	n = deref(n)
	if n.accepts {
		return yes
	}
	if n.vBusy {
		return look
	}
	n.vBusy = true
	defer func() { n.vBusy = false }()
	if n.types != 0 && classBits[c]&n.types == 0 {
		return no
	}
	// Every keyword must accept: the verdict is no if one says no, yes if
	// all say yes.
	out := yes
	and := func(x verdict) {
		if x == no || out == no {
			out = no
		} else if x == look {
			out = look
		}
	}
	if n.enum != nil {
		and(look)
	}
	and(kindVerdict(n, c, w))
	for _, s := range n.allOf {
		and(w.of(s, c))
	}
	if n.anyOf != nil {
		some := no
		for _, s := range n.anyOf.branches {
			switch w.of(s, c) {
			case yes:
				some = yes
			case look:
				if some == no {
					some = look
				}
			}
		}
		and(some)
	}
	if n.oneOf != nil {
		yeses, looks := 0, 0
		for _, s := range n.oneOf.branches {
			switch w.of(s, c) {
			case yes:
				yeses++
			case look:
				looks++
			}
		}
		switch {
		case looks > 0:
			and(look)
		case yeses == 1:
			and(yes)
		default:
			and(no)
		}
	}
	if n.not != nil {
		switch w.of(n.not, c) {
		case yes:
			and(no)
		case no:
			and(yes)
		default:
			and(look)
		}
	}
	return out
}

// kindVerdict is the verdict of n's keywords about values of a kind
// (strings, numbers, objects, arrays) on class c.
func kindVerdict(n *node, c class, w *verdictWork) verdict {
	switch c {
	case cStr:
		if n.minLen >= 0 || n.maxLen >= 0 || n.pattern != nil {
			return look
		}
	case cInt, cNum:
		if n.min != nil || n.max != nil {
			return look
		}
	case cObj:
		if n.readsMembers {
			return look
		}
	case cArr:
		if n.items != nil || n.itemsList != nil || n.unique {
			return look
		}
	case cStrings:
		// Its items are strings (it may have none): items takes them all
		// when it takes every string.
		if n.itemsList != nil || n.unique || n.items != nil && w.of(n.items, cStr) != yes {
			return look
		}
	}
	return yes
}
