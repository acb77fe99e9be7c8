package dialog

// NewIDNotIn returns a fresh message id, as NewID, that is also not in
// taken (ids a caller tracks itself, such as a merge's).
func (d *Dialog) NewIDNotIn(taken map[string]bool) string {
	for {
		id := d.NewID()
		if !taken[id] {
			return id
		}
	}
}
