// Command gencodec writes the codec of package nbformat's generated
// structs (nbformat/codec_gen.go), the last step of generating the typed
// layer (see generate.go).
//
// For every struct of schema_gen.go it writes a description of its members
// (JSON names, which are optional, which are the type tag or a cell's id)
// and typed methods over a member given by its index: decoding it from a
// node of the tape, clearing it, asking whether it is zero or present,
// comparing it with a node, writing it, and
// reaching a struct it holds. The algorithms over whole structs (which
// member a key names, the members kept in AdditionalProperties, the
// original layout of an edited object) are package nbformat's own
// (codec.go and the files beside it), written once for every struct; the
// generated code is only what depends on the field's Go type, so a member
// added to the schema is read, compared and written with no handwritten
// change, and no reflection.
//
// Usage: gencodec -in nbformat/schema_gen.go -out nbformat/codec_gen.go
// [-extra AdditionalProperties] [-state src:nodeRef] [-test [-beside schema_gen.go]] [-map]
//
// With -test, the input is a test file of structs standing for what a
// schema change could generate (nbformat/codec_synth_test.go), and the
// output a test file of their codec: without the tables over all
// generated structs, and with no codec ids (the order of their members in
// unsorted files is not learnt). -beside names the package's own
// structs (schema_gen.go): the helpers their codec writes are not written
// again (-state is then that of the -beside file), so that a member of a
// new type added to the schema (a number, say) never declares a helper
// twice in the package's test build.
//
// With -map, the output is internal/nbmap/map_gen.go: for every struct,
// its conversion to generic JSON and (but for cells and what holds them)
// from generic JSON, over its exported fields, in package nbmap (which
// imports nbformat); the algorithms over values are nbmap's own
// (tomap.go, frommap.go).
//
// -state names the unexported provenance field that retag gives the
// variants of cells and outputs (structs with a cell_type or output_type
// member); gencodec gives them a method ref returning its address.
package main

import (
	"flag"
	"fmt"
	"os"

	"github.com/nbdialog/ipynb/internal/genfile"
)

func main() {
	in := flag.String("in", "", "the generated structs (schema_gen.go)")
	out := flag.String("out", "", "the codec to write (codec_gen.go)")
	extra := flag.String("extra", "AdditionalProperties", "the field that keeps members the schema does not name")
	state := flag.String("state", "", `the provenance field of the variants, NAME:TYPE ("" for none)`)
	test := flag.Bool("test", false, "write the codec of test structs (no tables, no ids)")
	beside := flag.String("beside", "", "with -test: the package's own structs (schema_gen.go), whose codec's helpers are not written again")
	toMap := flag.Bool("map", false, "write internal/nbmap's conversions to and from generic JSON")
	flag.Parse()
	if *in == "" || *out == "" {
		fmt.Fprintln(os.Stderr, "usage: gencodec -in schema_gen.go -out codec_gen.go [-extra FIELD] [-state NAME:TYPE]")
		os.Exit(2)
	}
	if err := run(*in, *out, *extra, *state, *beside, *test, *toMap); err != nil {
		fmt.Fprintln(os.Stderr, "gencodec:", err)
		os.Exit(1)
	}
}

func run(in, out, extra, state, beside string, test, toMap bool) error {
	src, err := os.ReadFile(in)
	if err != nil {
		return err
	}
	own := state
	if test {
		own = "" // (test structs have no provenance; -state is the -beside file's)
	}
	m, err := load(in, src, extra, own)
	if err != nil {
		return err
	}
	m.test = test
	if test && beside != "" {
		bsrc, err := os.ReadFile(beside)
		if err != nil {
			return err
		}
		bm, err := load(beside, bsrc, extra, state)
		if err != nil {
			return err
		}
		m.beside = helperNames(bm)
	}
	emitter := emit
	if toMap {
		emitter = emitMap
	}
	code, err := emitter(m)
	if err != nil {
		return err
	}
	return genfile.Write(out, code)
}
