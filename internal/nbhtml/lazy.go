package nbhtml

import (
	_ "embed"
	"strconv"
	"strings"

	"github.com/nbdialog/ipynb/dialog"
)

// Lazy rendering. A page of many cells writes the first Options.Lazy
// cells as HTML and each later one inside a <template> (parsed, but
// inert: its images are not decoded, its frames not made) in a
// placeholder of about its height; the page's script (assets/lazy.js)
// renders a cell when it nears the view, when its anchor is visited, or
// all of them on request. Time to first render is then that of the first
// cells, whatever the notebook's size.

//go:embed assets/lazy.js
var lazyJS string

func (p *page) beginLazy() {
	p.s(`<p class="nb-note nb-lazy-note">Cells further down are rendered as they scroll into view; ` +
		`the browser's search finds text only in cells already rendered. <button type="button" class="nb-all">Render all cells</button></p>` + "\n")
}

func (p *page) endLazy() {
	p.s(`<noscript><p class="nb-note">Scripts are off: only the first cells are shown.</p></noscript>` + "\n")
}

// lazyCell writes a cell, inside a placeholder when lazy.
func (p *page) lazyCell(lazy bool, id string, height int, write func()) {
	if !lazy {
		write()
		return
	}
	p.s(`<div class="nb-lazy" id="` + id + `" style="height:` + strconv.Itoa(height) + `px"><template>`)
	write()
	p.s("</template></div>\n")
}

// estimateHeight guesses the height of message m's cell in pixels, for
// its placeholder.
func estimateHeight(m *dialog.Message) int {
	h := 40 + 20*min(strings.Count(m.Content, "\n")+1, 200)
	for _, o := range m.Outputs {
		switch o.Type() {
		case "stream", "error":
			h += 200
		default:
			h += 320
		}
	}
	return min(h, 4000)
}
