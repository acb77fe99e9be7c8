package main

import (
	"bytes"
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net"
	"net/http"
	"os"
	"os/exec"
	"os/signal"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/nbdialog/ipynb/convert"
	"github.com/nbdialog/ipynb/internal/nbhtml"
)

var webCmd = &command{
	name:    "web",
	summary: "show a notebook, a diff or a merge as a page served on this machine",
	doc: `Serves one page on this machine and prints its address:

  ipynb web NOTEBOOK                     the notebook (as ipynb html shows it)
  ipynb web A B                          the changes from A to B (as diff --html)
  ipynb web --merge BASE OURS THEIRS     resolve a merge's conflicts, save into OURS

The server listens on the loopback address only, on a free port, and
answers only requests that carry the random token of its address (and
name it as their host), so nobody else on the machine gets in. It stops
when the page is closed (the page tells it, and says every 2 s that it is
open) or on Ctrl-C. --open also opens the page in the browser.

The merge page shows each conflict with its base, ours and theirs; choose
ours, theirs or both, or edit the text; how many conflicts are left, and
whether the notebook is valid, is shown as you go. Save writes OURS
atomically, unless it changed on disk since it was read (then nothing is
written). Exit status, as git's mergetool wants it: 0 all conflicts
resolved and saved, 1 not (the page closed without saving, conflicts
left, OURS changed meanwhile), 2 an input is not a notebook.`,
	usage: "[--open] NOTEBOOK | A B | --merge BASE OURS THEIRS",
}

func init() { webCmd.run = runWeb }

// webApp is what a web page serves: the page, and its actions.
type webApp interface {
	page() ([]byte, error)
	// action answers a POST of the page's script (check, save).
	action(name string, body []byte) (any, bool)
	// status is the exit status once the server stopped.
	status() int
}

func runWeb(e *env, args []string) int {
	fs := webCmd.flags(e)
	merge := fs.Bool("merge", false, "resolve a merge: BASE OURS THEIRS, saved into OURS")
	open := fs.Bool("open", false, "open the page in the browser")
	if st := parse(e, fs, args); st >= 0 {
		return st
	}
	var app webApp
	var st int
	switch {
	case *merge && fs.NArg() == 3:
		app, st = newMergeApp(e, [3]string{fs.Arg(0), fs.Arg(1), fs.Arg(2)})
	case !*merge && fs.NArg() == 1:
		app, st = newViewApp(e, fs.Arg(0))
	case !*merge && fs.NArg() == 2:
		app, st = newDiffApp(e, fs.Arg(0), fs.Arg(1))
	default:
		fs.Usage()
		return exitError
	}
	if app == nil {
		return st
	}
	return serve(e, app, *open)
}

// pageApp serves a page that has no actions.
type pageApp struct{ data []byte }

func (a pageApp) page() ([]byte, error)             { return a.data, nil }
func (a pageApp) action(string, []byte) (any, bool) { return nil, false }
func (a pageApp) status() int                       { return exitOK }

func newViewApp(e *env, path string) (webApp, int) {
	d, _, st := readDialog(e, "web", []string{path})
	if st >= 0 {
		return nil, st
	}
	var b bytes.Buffer
	if err := nbhtml.Notebook(&b, d, nbhtml.Options{Title: baseName(path), Live: true}); err != nil {
		fmt.Fprintf(e.stderr, "ipynb web: %v\n", err)
		return nil, exitError
	}
	return pageApp{b.Bytes()}, -1
}

func newDiffApp(e *env, a, b string) (webApp, int) {
	var texts [2][]byte
	for i, f := range []string{a, b} {
		data, err := e.read(input{path: f})
		if err != nil {
			fmt.Fprintf(e.stderr, "%s: %v\n", quoteName(f), pathError(err))
			return nil, exitError
		}
		texts[i] = data
	}
	var d differ
	page, _, err := diffPage(&d, [2]string{a, b}, texts[0], texts[1], true)
	if mie := (*convert.MergeInputError)(nil); errors.As(err, &mie) {
		i := 0
		if mie.Input == "b" {
			i = 1
		}
		printError(e.stderr, quoteName([]string{a, b}[i]), located(mie.Err, nil))
		return nil, exitError
	}
	if err != nil {
		fmt.Fprintf(e.stderr, "ipynb web: %v\n", err)
		return nil, exitError
	}
	return pageApp{page}, -1
}

// webServer is the local server of one page.
type webServer struct {
	app   webApp
	addr  string // host:port
	base  string // "/TOKEN/"
	token string
	stop  context.CancelFunc

	mu    sync.Mutex
	alive time.Time // the page's last word (zero: not yet)
	bye   time.Time // when the page said it closed (zero: it did not)
}

// serve serves app until its page closes or the process is interrupted.
func serve(e *env, app webApp, open bool) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintf(e.stderr, "ipynb web: %v\n", err)
		return exitError
	}
	var tok [16]byte
	rand.Read(tok[:])
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s := &webServer{app: app, addr: ln.Addr().String(), token: hex.EncodeToString(tok[:]), stop: stop}
	s.base = "/" + s.token + "/"
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, ErrorLog: nil}
	url := "http://" + s.addr + s.base
	fmt.Fprintf(e.stdout, "%s\n", url)
	fmt.Fprintln(e.stderr, "ipynb web: serving the page at the address above; it stops when the page is closed, or on Ctrl-C")
	if open {
		openBrowser(url)
	}
	if q, ok := app.(interface{ setQuit(func()) }); ok {
		q.setQuit(stop)
	}
	go s.watch(ctx)
	go func() {
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
		fmt.Fprintf(e.stderr, "ipynb web: %v\n", err)
		return exitError
	}
	return app.status()
}

// watch stops the server when the page has been silent for 10 s, or
// 3 s after it said it closed (a reload says so, and then speaks again).
func (s *webServer) watch(ctx context.Context) {
	t := time.NewTicker(500 * time.Millisecond)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			s.mu.Lock()
			gone := !s.alive.IsZero() && now.Sub(s.alive) > 10*time.Second ||
				!s.bye.IsZero() && s.bye.After(s.alive) && now.Sub(s.bye) > 3*time.Second
			s.mu.Unlock()
			if gone {
				s.stop()
				return
			}
		}
	}
}

// ServeHTTP answers the page's requests: only those naming this server
// as their host (no DNS rebinding), under the token's path; posts only
// from the page's own origin.
func (s *webServer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	h := w.Header()
	h.Set("Cache-Control", "no-store")
	h.Set("X-Content-Type-Options", "nosniff")
	h.Set("Referrer-Policy", "no-referrer")
	h.Set("X-Frame-Options", "DENY")
	h.Set("Cross-Origin-Resource-Policy", "same-origin")
	rest, ok := strings.CutPrefix(r.URL.Path, "/")
	tok, rest, _ := strings.Cut(rest, "/")
	if r.Host != s.addr || !ok || subtle.ConstantTimeCompare([]byte(tok), []byte(s.token)) != 1 {
		http.NotFound(w, r)
		return
	}
	if rest == "" {
		if r.Method != http.MethodGet && r.Method != http.MethodHead {
			http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
			return
		}
		page, err := s.app.page()
		if err != nil {
			http.Error(w, err.Error(), http.StatusInternalServerError)
			return
		}
		h.Set("Content-Type", "text/html; charset=utf-8")
		w.Write(page)
		return
	}
	if r.Method != http.MethodPost || r.Header.Get("Content-Type") != "application/json" ||
		(r.Header.Get("Origin") != "" && r.Header.Get("Origin") != "http://"+s.addr) {
		http.Error(w, "forbidden", http.StatusForbidden)
		return
	}
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBytes))
	if err != nil {
		http.Error(w, err.Error(), http.StatusBadRequest)
		return
	}
	s.mu.Lock()
	switch rest {
	case "alive":
		s.alive = time.Now()
	case "bye":
		s.bye = time.Now()
	}
	s.mu.Unlock()
	if rest == "alive" || rest == "bye" {
		w.WriteHeader(http.StatusNoContent)
		return
	}
	answer, ok := s.app.action(rest, body)
	if !ok {
		http.NotFound(w, r)
		return
	}
	h.Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(answer)
}

// openBrowser opens url in the desktop's browser, not waiting for it.
func openBrowser(url string) {
	var cmd *exec.Cmd
	switch runtime.GOOS {
	case "darwin":
		cmd = exec.Command("open", url)
	case "windows":
		cmd = exec.Command("rundll32", "url.dll,FileProtocolHandler", url)
	default:
		cmd = exec.Command("xdg-open", url)
	}
	if cmd.Start() == nil {
		go cmd.Wait()
	}
}
