// Command genshape writes internal/nbshape/shape_gen.go: the shape
// notebooks are read with, built from the embedded schemas and package
// nbformat's type descriptions (nbshape.Source), so that no process builds
// it at start-up.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/nbdialog/ipynb/internal/nbshape"
	_ "github.com/nbdialog/ipynb/nbformat" // sets nbshape.Doc
)

func main() {
	out := flag.String("out", "", "the file to write")
	flag.Parse()
	if *out == "" || nbshape.Doc == nil {
		fmt.Fprintln(os.Stderr, "genshape: usage: genshape -out FILE (and package nbformat must set nbshape.Doc)")
		os.Exit(2)
	}
	src, err := nbshape.Source(nbshape.Doc)
	if err == nil {
		err = os.WriteFile(*out, src, 0o666)
	}
	if err != nil {
		fmt.Fprintln(os.Stderr, "genshape:", err)
		os.Exit(1)
	}
}
