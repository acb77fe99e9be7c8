// Package nbweb serves one page of internal/nbhtml on this machine, for
// `ipynb web` (the program ipynb-web, which ipynb runs for it, so that the
// ipynb command itself links no network code): a notebook, the changes
// between two notebooks, or a merge to resolve and save.
//
// The server listens on the loopback address only, on a free port, and
// answers only requests that carry the random token of its address in
// their path and that name that address as their host (so that another
// site cannot reach it through a name that resolves to the loopback
// address); posts only from the page's own origin, as JSON. It stops when
// the page says it closed (3 s later: a reload says so, then speaks
// again), at once when a client's bye says it is done ({"done": true}),
// when the page has said nothing for 10 s (it speaks every 2 s), or on an
// interrupt; an action in flight (a save) always ends, and counts in the
// exit status, before the server does. The address (and so the token) is printed
// for the user, and never put in another program's arguments: a browser
// opened is given a launcher page that only this user may read.
package nbweb

import (
	"context"
	"crypto/rand"
	"crypto/subtle"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"html"
	"io"
	"net"
	"net/http"
	neturl "net/url"
	"os"
	"os/exec"
	"os/signal"
	"path/filepath"
	"runtime"
	"strings"
	"sync"
	"syscall"
	"time"

	"github.com/nbdialog/ipynb/internal/nbhtml"
)

// maxBody is the largest request body read (a merge's resolutions).
const maxBody = 1 << 30

// webApp is what a web page serves: the page, and its actions.
type webApp interface {
	page() ([]byte, error)
	// action answers a POST of the page's script (check, save).
	action(name string, body []byte) (any, bool)
	// status is the exit status once the server stopped.
	status() int
}

// serverWaits are the server's times: how often it looks whether the page
// is gone, how long a page may be silent, how long after a page's bye it
// stops (a reload says bye, then speaks again), and how long the requests
// in flight have to end once it stops.
type serverWaits struct {
	tick, silence, byeGrace, shutdown time.Duration
}

// defaultWaits are the waits of ipynb web (tests shorten them).
var defaultWaits = serverWaits{tick: 500 * time.Millisecond, silence: 10 * time.Second, byeGrace: 3 * time.Second, shutdown: 2 * time.Second}

// webServer is the local server of one page.
type webServer struct {
	app   webApp
	waits serverWaits
	addr  string // host:port
	base  string // "/TOKEN/"
	token string
	stop  context.CancelFunc

	mu    sync.Mutex
	alive time.Time // the page's last word (zero: not yet)
	bye   time.Time // when the page said it closed (zero: it did not)

	// acting is read-held by each action while it runs; serve takes it
	// once the server stopped, so that no action is cut short.
	acting sync.RWMutex
}

// serve serves app until its page closes or the process is interrupted.
func serve(stdout, stderr io.Writer, app webApp, open bool) int {
	return serveWaiting(stdout, stderr, app, open, defaultWaits)
}

// serveWaiting is serve with the server's waits.
func serveWaiting(stdout, stderr io.Writer, app webApp, open bool, waits serverWaits) int {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		fmt.Fprintf(stderr, "ipynb web: %v\n", err)
		return 2
	}
	var tok [16]byte
	rand.Read(tok[:])
	ctx, stop := signal.NotifyContext(context.Background(), os.Interrupt, syscall.SIGTERM)
	defer stop()
	s := &webServer{app: app, waits: waits, addr: ln.Addr().String(), token: hex.EncodeToString(tok[:]), stop: stop}
	s.base = "/" + s.token + "/"
	srv := &http.Server{Handler: s, ReadHeaderTimeout: 10 * time.Second, ErrorLog: nil}
	url := "http://" + s.addr + s.base
	fmt.Fprintf(stdout, "%s\n", url)
	fmt.Fprintln(stderr, "ipynb web: serving the page at the address above; it stops when the page is closed, or on Ctrl-C")
	if open {
		l, remove, err := launcher(url)
		if err != nil {
			fmt.Fprintf(stderr, "ipynb web: %v\n", err)
			return 2
		}
		defer remove()
		openBrowser(l)
	}
	if q, ok := app.(interface{ setQuit(func()) }); ok {
		q.setQuit(stop)
	}
	go s.watch(ctx)
	shut := make(chan struct{})
	go func() {
		defer close(shut)
		<-ctx.Done()
		sctx, cancel := context.WithTimeout(context.Background(), s.waits.shutdown)
		defer cancel()
		srv.Shutdown(sctx)
	}()
	if err := srv.Serve(ln); err != nil && err != http.ErrServerClosed {
		fmt.Fprintf(stderr, "ipynb web: %v\n", err)
		return 2
	}
	// Serve returns as soon as the server stops: the requests it was
	// answering end first (those left after waits.shutdown, actions only).
	<-shut
	s.acting.Lock()
	return app.status()
}

// watch stops the server when the page has been silent for
// waits.silence, or waits.byeGrace after it said it closed (a reload says
// so, and then speaks again).
func (s *webServer) watch(ctx context.Context) {
	t := time.NewTicker(s.waits.tick)
	defer t.Stop()
	for {
		select {
		case <-ctx.Done():
			return
		case now := <-t.C:
			s.mu.Lock()
			gone := !s.alive.IsZero() && now.Sub(s.alive) > s.waits.silence ||
				!s.bye.IsZero() && s.bye.After(s.alive) && now.Sub(s.bye) > s.waits.byeGrace
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
	h.Set("Content-Security-Policy", nbhtml.ServedCSP())
	rest, ok := strings.CutPrefix(r.URL.Path, "/")
	tok, rest, _ := strings.Cut(rest, "/")
	if r.Host != s.addr || !ok || subtle.ConstantTimeCompare([]byte(tok), []byte(s.token)) != 1 {
		http.NotFound(w, r)
		return
	}
	if rest == "" && !strings.HasSuffix(r.URL.Path, "/") {
		// The address without its last slash: the page's requests,
		// relative to it, would lose the token.
		if r.Method == http.MethodGet || r.Method == http.MethodHead {
			http.Redirect(w, r, s.base, http.StatusMovedPermanently)
			return
		}
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
	body, err := io.ReadAll(io.LimitReader(r.Body, maxBody))
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
		var bye struct {
			Done bool `json:"done"`
		}
		if rest == "bye" && json.Unmarshal(body, &bye) == nil && bye.Done && s.stop != nil {
			s.stop()
		}
		return
	}
	s.acting.RLock()
	defer s.acting.RUnlock()
	answer, ok := s.app.action(rest, body)
	if !ok {
		http.NotFound(w, r)
		return
	}
	h.Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(answer)
}

// launcher writes a page that sends the browser on to url, in a folder of
// its own that only this user may read, and returns the page's file URL
// and a function that removes the folder. The browser is given this
// page, never url itself: a program's arguments are there for every user
// of the machine to read (ps, /proc/PID/cmdline) for as long as it runs,
// and url carries the server's token. The page is as inert as ours are
// (a policy that allows nothing, no referrer).
func launcher(url string) (string, func(), error) {
	dir, err := os.MkdirTemp("", "ipynb-web-")
	if err != nil {
		return "", nil, err
	}
	remove := func() { os.RemoveAll(dir) }
	p := filepath.Join(dir, "open.html")
	u := html.EscapeString(url)
	page := `<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><meta http-equiv="Content-Security-Policy" content="default-src 'none'">` +
		`<meta name="referrer" content="no-referrer"><meta http-equiv="refresh" content="0;url=` + u + `"><title>ipynb web</title></head>` +
		`<body><p><a href="` + u + `">Open the page</a></p></body></html>` + "\n"
	if err := os.WriteFile(p, []byte(page), 0o600); err != nil {
		remove()
		return "", nil, err
	}
	path := filepath.ToSlash(p)
	if !strings.HasPrefix(path, "/") {
		path = "/" + path // C:/… on Windows
	}
	return (&neturl.URL{Scheme: "file", Path: path}).String(), remove, nil
}

// openBrowser opens url in the browser, not waiting for it: $BROWSER
// (a program, given the address; the first that starts of a list
// separated by colons, as Python's webbrowser reads it), else the
// desktop's.
func openBrowser(url string) {
	for _, b := range strings.Split(os.Getenv("BROWSER"), string(os.PathListSeparator)) {
		if b = strings.TrimSpace(b); b == "" {
			continue
		}
		if cmd := exec.Command(b, url); cmd.Start() == nil {
			go cmd.Wait()
			return
		}
	}
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
