package main

// Folder searches for notebooks: *.ipynb files, links followed only inside the
// folders given, every file taken once.

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"io/fs"
	"maps"
	"os"
	"path/filepath"
	"runtime"
	"slices"
	"sort"
	"strings"
	"syscall"

	"github.com/nbdialog/ipynb/internal/atomicfile"
)

// skipDirs are not searched: version-control data and Jupyter's autosave
// copies.
var skipDirs = map[string]bool{".git": true, ".hg": true, ".svn": true, ".ipynb_checkpoints": true}

// walkOptions are the flags that govern folder searches.
type walkOptions struct {
	cmd     string
	follow  bool
	verbose *bool
}

// walkFlags adds --follow (and -v, unless the command has its own,
// verbose) to fs.
func walkFlags(fs *flag.FlagSet, cmd string, verbose *bool) *walkOptions {
	w := &walkOptions{cmd: cmd, verbose: verbose}
	fs.BoolVar(&w.follow, "follow", false, "in folders, also follow *.ipynb symbolic links to files outside the folders given")
	if verbose == nil {
		w.verbose = fs.Bool("v", false, "name each file skipped in folders")
	}
	return w
}

// expand turns PATH arguments into inputs: files as given, folders
// searched for *.ipynb (skipping skipDirs), "-" for standard input. A
// folder given is followed even if it is a symbolic link. In folders,
// only regular files are taken: named pipes, sockets and devices are
// skipped, and so are symbolic links to files outside the folders given
// (unless --follow) and links to a file already found; -v names each, and
// otherwise one line counts them. Missing paths, and folders without
// notebooks, are reported; ok is false then.
func expand(e *env, args []string, o *walkOptions) (ins []input, ok bool) {
	if o == nil {
		o = &walkOptions{verbose: new(bool)}
	}
	w := &walker{e: e, o: o, ok: true}
	if n := runtime.GOMAXPROCS(0) - 1; n > 0 {
		w.sem = make(chan struct{}, n) // the other cores search folders too
	}
	for _, a := range args {
		if a == "-" {
			continue
		}
		if fi, err := os.Stat(a); err == nil && fi.IsDir() {
			if r, err := filepath.EvalSymlinks(a); err == nil {
				w.roots = append(w.roots, r)
			}
		}
	}
	for _, a := range args {
		if a == "-" {
			ins = append(ins, input{path: "-"})
			continue
		}
		fi, err := os.Stat(a)
		if err != nil {
			fmt.Fprintf(e.stderr, "%s: %v\n", quoteName(a), pathError(err))
			w.ok = false
			continue
		}
		if !fi.IsDir() {
			ins = append(ins, input{path: a, size: fi.Size(), sized: fi.Mode().IsRegular()})
			continue
		}
		w.found, w.skippedHere, w.foundHere = nil, 0, 0
		w.dir(a, true)
		if w.foundHere == 0 {
			more := ""
			if w.skippedHere > 0 {
				more = fmt.Sprintf(" (%d skipped; -v names them)", w.skippedHere)
			}
			fmt.Fprintf(e.stderr, "ipynb %s: no notebooks found under %s%s\n", o.cmd, quoteName(a), more)
			w.ok = false
		}
		sort.Slice(w.found, func(i, j int) bool { return w.found[i].path < w.found[j].path })
		ins = append(ins, w.found...)
	}
	if w.skipped > 0 && !*w.o.verbose {
		if w.skipped == 1 {
			fmt.Fprintf(e.stderr, "ipynb %s: skipped 1 *.ipynb entry that is not a regular file inside the folders given (a named pipe, socket or device, or a link leading out or to nothing); -v names it, --follow follows links\n", o.cmd)
		} else {
			fmt.Fprintf(e.stderr, "ipynb %s: skipped %d *.ipynb entries that are not regular files inside the folders given (named pipes, sockets or devices, or links leading out or to nothing); -v names them, --follow follows links\n", o.cmd, w.skipped)
		}
	}
	return ins, w.ok
}

// walker searches folders for notebooks.
type walker struct {
	e           *env
	o           *walkOptions
	roots       []string // the folders given, links resolved
	found       []input
	seen        map[[2]uint64]seenFile // device and inode → file found
	skipped     int                    // in all folders
	skippedHere int                    // in the current argument
	foundHere   int                    // notebooks in the current argument, repeats included
	ok          bool
	sem         chan struct{} // a token for each folder searched on a goroutine of its own (nil: none)
}

// dir searches the folder p. A folder given (follow) may be a symbolic
// link; a folder met in the search is opened without following one, so
// that a link swapped in for it is not searched. The files found carry the
// identity of the folder listed, which reading them checks. Folders in it
// are searched at once on other goroutines while w.sem has room; what the
// search found and has to say is then taken in the order a search of one
// folder after another takes it (see listing), so the files, the
// messages and the duplicates left out are the same.
func (w *walker) dir(p string, follow bool) {
	l := &listing{}
	w.search(l, p, follow)
	w.take(l)
}

// search lists the folder p into l (see dir); it only reads w's options
// and roots, so that searches may run at once.
func (w *walker) search(l *listing, p string, follow bool) {
	flags := os.O_RDONLY | syscall.O_DIRECTORY
	if !follow {
		flags |= syscall.O_NOFOLLOW
	}
	f, err := os.OpenFile(p, flags, 0)
	if errors.Is(err, syscall.ELOOP) || errors.Is(err, syscall.ENOTDIR) {
		l.skip(p, "it stopped being a folder while the search ran")
		return
	}
	if err != nil {
		l.fail(p, err)
		return
	}
	defer f.Close()
	folder, err := f.Stat()
	if err != nil {
		l.fail(p, err)
		return
	}
	entries, err := w.list(l, f, p)
	if err != nil {
		l.fail(p, err)
		return
	}
	for _, d := range entries {
		name, t := d.Name(), d.Type()
		q := filepath.Join(p, name)
		switch {
		case t.IsDir():
			if !skipDirs[name] {
				w.sub(l, q)
			}
		case !strings.HasSuffix(name, ".ipynb"):
		case t.IsRegular():
			l.file(q, "", folder)
		case t&fs.ModeSymlink != 0:
			w.link(l, q)
		default:
			l.skip(q, fmt.Sprintf("not a regular file (%s)", atomicfile.Kind(t)))
		}
	}
}

// sub searches the folder q met in a search into a listing of its own,
// in l's place for it: on a goroutine of its own if w.sem has room, else
// now.
func (w *walker) sub(l *listing, q string) {
	s := &listing{}
	l.items = append(l.items, item{sub: s})
	select {
	case w.sem <- struct{}{}:
		s.done = make(chan struct{})
		go func() {
			defer close(s.done)
			defer func() { <-w.sem }()
			w.search(s, q, false)
		}()
	default:
		w.search(s, q, false)
	}
}

// maxListings is how often list lists a folder that keeps changing.
const maxListings = 8

// readDir lists a folder (a seam for tests).
var readDir = func(f *os.File) ([]fs.DirEntry, error) { return f.ReadDir(-1) }

// list returns the entries of the folder f (p), sorted by name. Whether a
// listing returns an entry renamed over (a file saved by another process)
// while it runs is unspecified (POSIX): btrfs leaves out an entry renamed
// over after the folder was opened or rewound. So list rewinds and lists
// again, taking every name seen, for as long as the folder's modification
// time or size moved during a listing; at most maxListings times, then it
// says that a notebook saved meanwhile may be missing. (A change within
// the same tick of a coarse clock leaves the time as it was.)
func (w *walker) list(l *listing, f *os.File, p string) ([]fs.DirEntry, error) {
	byName := map[string]fs.DirEntry{}
	for n := 1; ; n++ {
		before, err := f.Stat()
		if err != nil {
			return nil, err
		}
		// Rewinding makes the listing show the folder as it is now, as
		// opening it would.
		if _, err := f.Seek(0, io.SeekStart); err != nil {
			return nil, err
		}
		entries, err := readDir(f)
		if err != nil {
			return nil, err
		}
		for _, d := range entries {
			byName[d.Name()] = d
		}
		after, err := f.Stat()
		if err != nil {
			return nil, err
		}
		if after.ModTime().Equal(before.ModTime()) && after.Size() == before.Size() {
			break
		}
		if n == maxListings {
			l.note(fmt.Sprintf("ipynb %s: %s kept changing while it was listed (%d times); a notebook saved or added there meanwhile may be missing", w.o.cmd, quoteName(p), n))
			break
		}
	}
	entries := slices.Collect(maps.Values(byName))
	slices.SortFunc(entries, func(a, b fs.DirEntry) int { return strings.Compare(a.Name(), b.Name()) })
	return entries, nil
}

// link takes a symbolic link found in a folder if it leads to a regular
// file inside the folders given (or anywhere, with --follow).
func (w *walker) link(l *listing, q string) {
	fi, err := os.Stat(q)
	if err != nil {
		l.skip(q, "a symbolic link to a missing file")
		return
	}
	if !fi.Mode().IsRegular() {
		l.skip(q, fmt.Sprintf("a symbolic link to %s", atomicfile.Kind(fi.Mode())))
		return
	}
	real, err := filepath.EvalSymlinks(q)
	if err != nil {
		l.skip(q, fmt.Sprintf("a symbolic link that cannot be resolved: %v", pathError(err)))
		return
	}
	if !w.o.follow && !w.inside(real) {
		l.skip(q, fmt.Sprintf("a symbolic link to %s, outside the folders given (--follow follows it)", real))
		return
	}
	folder, err := os.Stat(filepath.Dir(real))
	if err != nil {
		l.skip(q, fmt.Sprintf("a symbolic link that cannot be resolved: %v", pathError(err)))
		return
	}
	l.file(q, real, folder)
}

func (w *walker) inside(p string) bool {
	for _, r := range w.roots {
		if rel, err := filepath.Rel(r, p); err == nil && rel != ".." && !strings.HasPrefix(rel, ".."+string(filepath.Separator)) && !filepath.IsAbs(rel) {
			return true
		}
	}
	return false
}

// file records the notebook q (for a link, leading to real) found in
// folder, with the identity of the file it leads to.
func (l *listing) file(q, real string, folder fs.FileInfo) {
	target := q
	if real != "" {
		target = real
	}
	if beforeIdentify != nil {
		beforeIdentify(target)
	}
	it := item{in: input{path: q, walked: true, real: real, folder: folder}, target: target}
	it.id, it.in.size, it.idOK = identity(target)
	it.in.sized = it.idOK
	l.items = append(l.items, it)
}

// add takes a notebook the search found, unless it is a file found
// already (the first name found for it is kept).
func (w *walker) add(it item) {
	w.foundHere++
	if it.idOK {
		if first, dup := w.seen[it.id]; dup && identitySame(first.target, it.id) {
			if *w.o.verbose {
				fmt.Fprintf(w.e.stderr, "%s: skipped: the same file as %s\n", quoteName(it.in.path), quoteName(first.shown))
			}
			return
		}
		if w.seen == nil {
			w.seen = map[[2]uint64]seenFile{}
		}
		w.seen[it.id] = seenFile{shown: it.in.path, target: it.target}
	}
	w.found = append(w.found, it.in)
}

// seenFile is a file the walk took: its path as shown, and the file the
// path leads to (the link's target, for a link).
type seenFile struct{ shown, target string }

// beforeIdentify, if set (by tests), runs before the walk looks up the
// identity of a file it found.
var beforeIdentify func(target string)

// identity is the device and inode of the file p leads to, and its size.
func identity(p string) (id [2]uint64, size int64, ok bool) {
	fi, err := os.Stat(p)
	if err != nil {
		return [2]uint64{}, 0, false
	}
	st, ok := fi.Sys().(*syscall.Stat_t)
	if !ok {
		return [2]uint64{}, 0, false
	}
	return [2]uint64{uint64(st.Dev), uint64(st.Ino)}, fi.Size(), true
}

// identitySame reports whether p still leads to the file id. A file found
// earlier in the walk may have been replaced since (renamed over by
// another process saving it), and the inode number it had given to a new
// file at once (ext4 reuses a freed inode number for the next file
// created): a file found later with that number is another file, not the
// same one under a second name, unless the first name still leads to it.
func identitySame(p string, id [2]uint64) bool {
	now, _, ok := identity(p)
	return ok && now == id
}

// take takes what a search found, in order (waiting for the folders
// searched on other goroutines): the files, the entries skipped, the
// errors and notes.
func (w *walker) take(l *listing) {
	if l.done != nil {
		<-l.done
	}
	for _, it := range l.items {
		switch {
		case it.sub != nil:
			w.take(it.sub)
		case it.skip != "":
			w.skipped++
			w.skippedHere++
			if *w.o.verbose {
				fmt.Fprintf(w.e.stderr, "%s: skipped: %s\n", quoteName(it.in.path), it.skip)
			}
		case it.line != "":
			fmt.Fprintln(w.e.stderr, it.line)
			if it.failed {
				w.ok = false
			}
		default:
			w.add(it)
		}
	}
}

// A listing is what the search of one folder found, in order: notebooks,
// entries skipped, errors and notes, and the listings of the folders in
// it.
type listing struct {
	items []item
	done  chan struct{} // closed when items is complete, for a folder searched on a goroutine of its own
}

// item is one thing a listing holds: a folder's listing (sub), an entry
// skipped (in.path, and why), a line to print (line; failed for an
// error), or else a notebook (in, with the identity of target).
type item struct {
	sub    *listing
	in     input
	skip   string
	line   string
	failed bool
	target string
	id     [2]uint64
	idOK   bool
}

func (l *listing) skip(q, why string) {
	l.items = append(l.items, item{in: input{path: q}, skip: why})
}

// fail records an error about the folder p: the search of the argument
// failed.
func (l *listing) fail(p string, err error) {
	l.items = append(l.items, item{line: fmt.Sprintf("%s: %v", quoteName(p), pathError(err)), failed: true})
}

func (l *listing) note(line string) {
	l.items = append(l.items, item{line: line})
}
