// Package testtier is the one switch between the test suite's two tiers.
//
// The fast tier is what `go test ./...` runs: every contract, with the
// sweeps over the corpus, over mutations, against oracles (Python
// nbformat, git, the reflective decoder) run over a deterministic sample.
// The long tier runs when the environment variable IPYNB_LONG is 1:
//
//	IPYNB_LONG=1 go test -timeout 60m ./...
//
// and adds the tests that call Long (whole-corpus sweeps, mutation and
// attack suites, oracle and differential sweeps, allocation and scaling
// tests that duplicate cheaper coverage) and runs every sampled sweep in
// full. An environment variable, not a flag, so that the one command
// reaches every package, including those that define no flags.
//
// -short (which .ci/run uses with -race) asks for less than the fast tier
// and always wins over IPYNB_LONG: the long tier stays off, the sweeps stay
// sampled, and the tests that check testing.Short skip as well (those too
// slow under the race detector).
//
// A test opts in with one line:
//
//	testtier.Long(t)           // at the top: runs in the long tier only
//	if !testtier.Full() { … }  // cut a sweep short outside the long tier
//	if !testtier.Sample(i) { continue } // every 8th item outside it
package testtier

import (
	"os"
	"testing"
)

// Env is the environment variable that turns the long tier on when it is 1.
const Env = "IPYNB_LONG"

// Every is the stride of Sample outside the long tier.
const Every = 8

// Full reports whether the long tier runs: IPYNB_LONG=1 and not -short.
// It is meant for test code, where the testing flags have been parsed.
func Full() bool {
	return os.Getenv(Env) == "1" && !testing.Short()
}

// Long skips t unless the long tier runs, naming the switch.
func Long(t testing.TB) {
	t.Helper()
	switch {
	case testing.Short():
		t.Skip("long tier: not under -short")
	case !Full():
		t.Skip("long tier: runs with " + Env + "=1 (see internal/testtier)")
	}
}

// Sample reports whether the i'th item of a sweep (counting from 0) runs
// in this tier: every item in the long tier, every Every'th one otherwise
// (items 0, 8, 16, …).
func Sample(i int) bool {
	return Full() || i%Every == 0
}
