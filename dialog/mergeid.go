package dialog

// newIDNotIn returns a fresh message id for d, as NewID, that is also
// not in taken (the ids a merge has given so far).
func (d *Dialog) newIDNotIn(taken map[string]bool) string {
	for {
		id := d.newID()
		if !taken[id] {
			return id
		}
	}
}
