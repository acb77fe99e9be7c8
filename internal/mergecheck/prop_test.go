package mergecheck

// The merge property tests, fast and long tiers, of the library, the command
// and git with fix, and the seeds that once failed.

import (
	"fmt"
	"maps"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// The property test of issue 21 item 3: random edit pairs, merged by the
// library (convert.Merge), by the built command ("ipynb merge"), and by
// "ipynb fix" on what real git's line merge (git merge-file --diff3) made
// of the same three files; every result judged by check.

const (
	fastCases = 300  // library cases of the default tier
	fastCmd   = 20   // command cases (merge, and twice as many fix) of the default tier
	longCases = 6000 // library cases with IPYNB_LONG=1
	longCmd   = 1500 // command cases with IPYNB_LONG=1
)

func long(t *testing.T) {
	t.Helper()
	testtier.Long(t)
}

func TestMergeProperty(t *testing.T) {
	t.Parallel()
	property(t, "convert.Merge", libraryMerge, seedRange(1, fastCases), realBases(25), 15)
}

func TestMergePropertyLong(t *testing.T) {
	t.Parallel()
	long(t)
	property(t, "convert.Merge (long)", libraryMerge, seedRange(1_000_000, longCases), realBases(1), 400)
}

func TestMergePropertyCommand(t *testing.T) {
	t.Parallel()
	commandProperty(t, fastCmd, 1, realBases(25))
}

func TestMergePropertyCommandLong(t *testing.T) {
	t.Parallel()
	long(t)
	commandProperty(t, longCmd, 2_000_000, realBases(1))
}

func commandProperty(t *testing.T, n, from int, reals []realBase) {
	bin := buildCommand(t)
	t.Run("merge", func(t *testing.T) {
		property(t, "ipynb merge", commandMerge(t, bin, t.TempDir()), seedRange(from, n), reals, 5)
	})
	t.Run("fix", func(t *testing.T) {
		if _, err := exec.LookPath("git"); err != nil {
			t.Skip("git absent")
		}
		property(t, "git merge-file --diff3 + ipynb fix", fixMerge(t, bin, t.TempDir()), seedRange(from, 2*n), reals, 5)
	})
}

// TestMergePropertyRange runs a range of seeds no tier runs, to look for
// new failures: IPYNB_MERGEPROP_FROM=N (and IPYNB_MERGEPROP_N, default
// 6000; IPYNB_MERGEPROP_PATH=merge or fix as for TestMergePropertySeed)
// go test ./internal/mergecheck -run TestMergePropertyRange -v
// (IPYNB_MERGEPROP_SEEDS=N,M,...: those seeds instead of a range).
func TestMergePropertyRange(t *testing.T) {
	t.Parallel()
	seeds, from, err := envSeeds()
	if err != nil {
		t.Fatal(err)
	}
	if seeds == nil {
		t.Skip("set IPYNB_MERGEPROP_FROM to the first seed (a positive integer), or IPYNB_MERGEPROP_SEEDS")
	}
	reals := realBases(25)
	if from >= 1_000_000 {
		reals = realBases(1)
	}
	m, what := libraryMerge, "convert.Merge"
	switch os.Getenv("IPYNB_MERGEPROP_PATH") {
	case "merge":
		m, what = commandMerge(t, buildCommand(t), t.TempDir()), "ipynb merge"
	case "fix":
		if _, err := exec.LookPath("git"); err != nil {
			t.Skip("git absent")
		}
		m, what = fixMerge(t, buildCommand(t), t.TempDir()), "git merge-file --diff3 + ipynb fix"
	}
	property(t, what+" (seeds from "+strconv.Itoa(from)+")", m, seeds, reals, 400)
}

// envSeeds reads TestMergePropertyRange's seeds: IPYNB_MERGEPROP_SEEDS, a
// comma-separated list, or IPYNB_MERGEPROP_N (default 6000) seeds from
// IPYNB_MERGEPROP_FROM; nil when neither is set. from is the least seed.
func envSeeds() (seeds []uint64, from int, err error) {
	if list := os.Getenv("IPYNB_MERGEPROP_SEEDS"); list != "" {
		for _, f := range strings.Split(list, ",") {
			s, err := strconv.Atoi(strings.TrimSpace(f))
			if err != nil || s < 1 {
				return nil, 0, fmt.Errorf("IPYNB_MERGEPROP_SEEDS: %q is not a positive integer", f)
			}
			if from == 0 || s < from {
				from = s
			}
			seeds = append(seeds, uint64(s))
		}
		return seeds, from, nil
	}
	s := os.Getenv("IPYNB_MERGEPROP_FROM")
	if s == "" {
		return nil, 0, nil
	}
	if from, err = strconv.Atoi(s); err != nil || from < 1 {
		return nil, 0, fmt.Errorf("IPYNB_MERGEPROP_FROM=%q: not a positive integer", s)
	}
	n := 6000
	if s := os.Getenv("IPYNB_MERGEPROP_N"); s != "" {
		if n, err = strconv.Atoi(s); err != nil || n < 1 {
			return nil, 0, fmt.Errorf("IPYNB_MERGEPROP_N=%q: not a positive integer", s)
		}
	}
	return seedRange(from, n), from, nil
}

// TestMergePropertySeed shows one case, shrunk to its first failure
// (IPYNB_MERGEPROP_CLASS: to the first of that class), merged by the
// library (IPYNB_MERGEPROP_PATH=merge: the command; fix: git and fix):
// IPYNB_MERGEPROP_SEED=N go test -run TestMergePropertySeed -v
// (IPYNB_MERGEPROP_DUMP=DIR: writes base.ipynb, ours.ipynb and
// theirs.ipynb of the shrunk case into DIR).
func TestMergePropertySeed(t *testing.T) {
	t.Parallel()
	s := os.Getenv("IPYNB_MERGEPROP_SEED")
	if s == "" {
		t.Skip("set IPYNB_MERGEPROP_SEED to a case's seed")
	}
	seed, err := strconv.ParseUint(s, 10, 64)
	if err != nil {
		t.Fatal(err)
	}
	reals := realBases(25)
	if seed >= 1_000_000 {
		reals = realBases(1)
	}
	m := libraryMerge
	switch os.Getenv("IPYNB_MERGEPROP_PATH") {
	case "merge":
		m = commandMerge(t, buildCommand(t), t.TempDir())
	case "fix":
		m = fixMerge(t, buildCommand(t), t.TempDir())
	}
	c := newCase(seed, reals)
	fails, _ := runCase(c, m)
	want := os.Getenv("IPYNB_MERGEPROP_CLASS")
	for _, f := range fails {
		if want == "" || strings.Contains(f.class(), want) {
			c, _ = shrink(c, m, f.class(), 300)
			break
		}
	}
	fs := c.files()
	if dir := os.Getenv("IPYNB_MERGEPROP_DUMP"); dir != "" { // the three files, to replay by hand
		writeFiles(t, dir, map[string][]byte{"base.ipynb": fs[0], "ours.ipynb": fs[1], "theirs.ipynb": fs[2]})
	}
	out := m(fs[0], fs[1], fs[2])
	res, st, said := out.result, out.status, out.said
	if os.Getenv("IPYNB_MERGEPROP_COMPACT") != "" { // values on one line each (styles lost)
		for i, f := range append(fs[:], res) {
			if v, err := parseJSON(f); err == nil {
				fs2 := oneLineStyle.write(v)
				if i < 3 {
					fs[i] = fs2
				} else {
					res = fs2
				}
			}
		}
	}
	if out.marked != nil {
		said = "git's line merge wrote:\n" + string(out.marked) + "\n" + said
	}
	t.Logf("%v\n--- base\n%s\n--- ours\n%s\n--- theirs\n%s\n--- result (exit %d: %s)\n%s", c, fs[0], fs[1], fs[2], st, said, res)
	fails, _ = runCase(c, m)
	for _, f := range fails {
		t.Errorf("%v", f)
	}
}

// fixedSeeds are seeds of TestMergePropertyRange's ranges, by path, that
// failed once and were fixed (the cause named by each fix's test), run
// again by the long tier: a later change that brings one back fails
// TestMergePropertyFixedSeedsLong, though the tier's ranges hold none.
var fixedSeeds = map[string][]uint64{
	"fix": {
		26000380, // cmd/ipynb/TestFixTwoWayV3KindRecordsTheirsLanguageAndLevel
		42001941, // TestRepairCopiesReadSideBySide
		42001951, // TestRepairCopiesAlikeInBase
		42002627, // TestRepairCopiesAlikeInBase
		42002880, // cmd/ipynb/TestMergePromptMadeAnotherKindMergesTheWholeSource
		43000667, // TestMergeSameEditOverGuessedPairing
		44001929, // TestRepairCopiesReadSideBySide
		63000392, // TestRepairReadsSideIDChangeByToken
		63001051, // cmd/ipynb/TestFixTwoWayPairsMovedCells
		64000114, // TestRepairReadsCopyByKind
		65001228, // TestRepairReadsAlikeCopiesApart
		65002172, // TestRepairReadsSideIDRenamed
		65004752, // TestRepairReadsCopiesByKind
		68002928, // TestRepairReadsEditedCopiesApart
		69001638, // TestRepairFileEndKeysCellEndedByGit
	},
	"library": {14004881}, // TestMergeV3HeadingIsNoMarkdownCellsEdit
}

func TestMergePropertyFixedSeedsLong(t *testing.T) {
	t.Parallel()
	long(t)
	reals := realBases(1)
	bin := buildCommand(t) // (in the test's own directory: the subtests share it)
	for _, path := range slices.Sorted(maps.Keys(fixedSeeds)) {
		t.Run(path, func(t *testing.T) {
			m := libraryMerge
			switch path {
			case "merge":
				m = commandMerge(t, bin, t.TempDir())
			case "fix":
				if _, err := exec.LookPath("git"); err != nil {
					t.Skip("git absent")
				}
				m = fixMerge(t, bin, t.TempDir())
			}
			property(t, path+" (fixed seeds)", m, fixedSeeds[path], reals, 5)
		})
	}
}
