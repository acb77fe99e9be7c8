// OrFull: running a reader of a shaped tape, and again on a full parse should it need a lazy interior.
package jsontree

// OrFull returns f(first), where first is whole or a tape parsed from
// whole's data with another shape; should f need the interior of a lazy
// node (it panics with a *LazyError), it returns f of a full parse of
// whole's data instead (whole.Full()). Any other panic is f's, re-raised,
// and so is the LazyError should the full parse fail.
func OrFull[R any](first, whole *Tape, f func(*Tape) R) (r R) {
	defer func() {
		p := recover()
		if p == nil {
			return
		}
		if _, ok := p.(*LazyError); !ok {
			panic(p)
		}
		full, err := whole.Full()
		if err != nil {
			panic(p)
		}
		r = f(full)
	}()
	return f(first)
}
