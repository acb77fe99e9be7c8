package nbformat

import (
	"fmt"
	"os"
	"runtime"
	"sort"
	"testing"

	"github.com/nbdialog/ipynb/internal/corpus"
)

func TestZZSizes(t *testing.T) {
	var files [][]byte
	for _, data := range corpus.Files(t) {
		if len(data) < 20<<10 {
			if _, err := Unmarshal(data); err == nil {
				files = append(files, data)
			}
		}
	}
	runtime.MemProfileRate = 1
	for range 3 {
		for _, data := range files {
			nb, _ := Unmarshal(data)
			_ = Validate(nb)
			_, _ = Marshal(nb)
		}
	}
	runtime.GC()
	f, _ := os.Create("/tmp/coldalloc-sizes.prof")
	defer f.Close()
	runtime.MemProfileRate = 512 * 1024
	var recs []runtime.MemProfileRecord
	n, _ := runtime.MemProfile(nil, true)
	recs = make([]runtime.MemProfileRecord, n+100)
	n, _ = runtime.MemProfile(recs, true)
	recs = recs[:n]
	type key struct {
		fn   string
		size int64
	}
	cnt := map[key]int64{}
	classes := map[int64]int64{}
	for _, r := range recs {
		if r.AllocObjects == 0 {
			continue
		}
		size := r.AllocBytes / r.AllocObjects
		frames := runtime.CallersFrames(r.Stack())
		name := ""
		for {
			fr, more := frames.Next()
			if name == "" || (len(fr.Function) > 0 && !isRuntime(fr.Function)) {
				name = fr.Function
				if !isRuntime(fr.Function) {
					break
				}
			}
			if !more {
				break
			}
		}
		cnt[key{name, size}] += r.AllocObjects
		classes[size] += r.AllocObjects
	}
	var ks []key
	for k := range cnt {
		ks = append(ks, k)
	}
	sort.Slice(ks, func(i, j int) bool { return cnt[ks[i]]*ks[i].size > cnt[ks[j]]*ks[j].size })
	nf := int64(3 * len(files))
	byFn := map[string][2]float64{}
	for k, c := range cnt {
		if k.fn == "os.readFileContents" || k.fn == "" {
			continue
		}
		v := byFn[k.fn]
		v[0] += float64(c) / float64(nf)
		v[1] += float64(c*k.size) / float64(nf)
		byFn[k.fn] = v
	}
	var fns []string
	for f := range byFn {
		fns = append(fns, f)
	}
	sort.Slice(fns, func(i, j int) bool { return byFn[fns[i]][1] > byFn[fns[j]][1] })
	for _, f := range fns[:min(40, len(fns))] {
		fmt.Printf("%8.2f allocs/file %8.0f B/file %s\n", byFn[f][0], byFn[f][1], f)
	}
	fmt.Println("distinct sizes", len(classes))
}

func isRuntime(f string) bool {
	return len(f) > 8 && (f[:8] == "runtime." || f[:8] == "reflect." || f[:8] == "strings." || f[:5] == "sync.")
}
