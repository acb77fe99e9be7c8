package dialog

import "testing"

// A line edited inside scores by its bytes; texts whose differing bytes
// hold a line end in both (lines replaced) score by their lines only, so
// that two texts of one shape — a token line and a numbered line — are
// not alike (seeds 7013081, 7015155 and 7019799 of internal/mergecheck:
// a cell deleted and another of its shape inserted in its place was paired
// with it as an edit).
func TestEdgeSimilarityWithinALine(t *testing.T) {
	t.Parallel()
	for _, c := range []struct {
		x, y  string
		alike bool // scores at least `similar`
		zero  bool // scores 0
	}{
		// one line given one more argument: no line in common, most bytes
		{"plot(x, y, color='red')\n", "plot(x, y, color='red', lw=2)\n", true, false},
		// a line of a longer text edited inside
		{"import numpy as np\nplot(x, y, color='red')\nshow()\n", "import numpy as np\nplot(x, y, color='red', lw=2)\nshow()\n", true, false},
		// every line replaced by one of the same shape
		{"«b2»\nb2.1 # title", "«o1»\no1.1 # title", false, true},
		{"«b1»\nb1.1 text", "«t3»\nt3.1 text", false, true},
		{"«b0»\nb0.1 - item\nb0.2 x = 1\nb0.3 - item", "«o3»\no3.1 - item", false, true},
	} {
		s := similarity(c.x, c.y)
		if c.alike && s < similar || c.zero && s != 0 || !c.alike && s >= similar {
			t.Errorf("similarity(%q, %q) = %v, want alike %v, zero %v", c.x, c.y, s, c.alike, c.zero)
		}
	}
}
