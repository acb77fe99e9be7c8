package nbhtml_test

// An example of writing a notebook's page.

import (
	"bytes"
	"fmt"
	"strings"

	"github.com/nbdialog/ipynb/dialog"
	"github.com/nbdialog/ipynb/internal/nbhtml"
)

func ExampleNotebook() {
	d := &dialog.Dialog{Name: "demo"}
	d.Add(dialog.Note, "Hello <script>alert(1)</script> [link](javascript:alert(1))")
	var page bytes.Buffer
	if err := nbhtml.Notebook(&page, d, nbhtml.Options{}); err != nil {
		panic(err)
	}
	s := page.String()
	start := strings.Index(s, `<div class="nb-md">`)
	fmt.Println(s[start : start+strings.Index(s[start:], "</div>")+6])
	fmt.Println(nbhtml.Policy{}.CSP())
	// Output:
	// <div class="nb-md"><p>Hello &lt;script&gt;alert(1)&lt;/script&gt; <a class="nb-inert" title="link not followed: javascript:alert(1)">link</a></p>
	// </div>
	// default-src 'none'; img-src data:; font-src data:; style-src 'unsafe-inline'; script-src 'none'; frame-src 'none'; child-src 'none'; base-uri 'none'; form-action 'none'
}
