package main

import (
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/convert"
)

// ipynb show prints the same ids for a notebook without cell ids on every
// run, and they are the ids the library gives when reading the file, so
// an id seen once can be used again.
func TestShowStableIDs(t *testing.T) {
	t.Parallel()
	for _, name := range []string{"v4.4.ipynb", "v3.ipynb", "kaggle.ipynb"} {
		dir := work(t, name)
		first := ipynb(t, dir, "", "show", name)
		second := ipynb(t, dir, "", "show", "--json", name)
		third := ipynb(t, dir, "", "show", name)
		if first.code != 0 || first.stdout != third.stdout {
			t.Errorf("%s: show differs between runs:\n%s\n%s", name, first.stdout, third.stdout)
		}
		d, err := convert.ReadFile(dir+"/"+name, convert.ReadOptions{})
		if err != nil {
			t.Fatal(err)
		}
		for _, m := range d.Messages {
			if !strings.Contains(first.stdout, "\n"+m.ID+":") || !strings.Contains(second.stdout, `"`+m.ID+`"`) {
				t.Errorf("%s: id %s of the library's reading not shown", name, m.ID)
			}
		}
	}
}
