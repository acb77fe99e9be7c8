// Command ipynb-web is `ipynb web`: it serves a notebook, a diff or a
// merge as a page on this machine (see internal/nbweb). The ipynb command
// runs it (installed beside it, or on the PATH), so that ipynb itself
// links no network code; it can be run alone as well.
package main

import (
	"os"

	"github.com/nbdialog/ipynb/internal/nbweb"
)

func main() { os.Exit(nbweb.Main(os.Args[1:], os.Stdin, os.Stdout, os.Stderr)) }
