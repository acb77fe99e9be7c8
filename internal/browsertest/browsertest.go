// Package browsertest runs pages in a real browser for tests: headless
// Chromium (Debian's chromium, or $CHROMIUM), driven with chromedp, with
// every request the page makes recorded and all but those a test allows
// refused, and a trap server on loopback that records any request that
// reaches it (pages planted with its URL must never reach it).
//
// Tests that use it skip when no Chromium can be started (not installed,
// or -short). In a package whose TestMain calls Main, one browser serves
// all its tests (each test gets a tab of its own) and ends with the test
// binary; elsewhere each test starts a browser that ends with the test.
// The profile folder is a fresh temporary folder, removed at the end.
// Screenshots are taken where someone can look at them: with
// $REVIEW_SHOTS naming a folder (they are copied there) or in the long
// tier; they are written to the test's TempDir.
package browsertest

import (
	"context"
	"fmt"
	"net/http"
	"net/http/httptest"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/cdproto/cdp"
	"github.com/chromedp/cdproto/fetch"
	"github.com/chromedp/cdproto/network"
	"github.com/chromedp/cdproto/page"
	"github.com/chromedp/chromedp"
	"github.com/nbdialog/ipynb/internal/testtier"
)

// ExecPath is the browser to run: $CHROMIUM, else chromium or
// chromium-browser on the PATH ("" when there is none).
func ExecPath() string {
	if p := os.Getenv("CHROMIUM"); p != "" {
		return p
	}
	for _, n := range []string{"chromium", "chromium-browser"} {
		if p, err := exec.LookPath(n); err == nil {
			return p
		}
	}
	return ""
}

// newBrowser starts a browser with its profile in dir; cancel ends it.
// The browser's own temporary files (the folder of its singleton socket,
// which a browser that is killed never removes) are made in a folder of
// their own that cancel removes: a short one under the system's, as a
// socket's path may not be longer than 107 bytes (a test's TempDir can
// be).
func newBrowser(exe, dir string) (context.Context, context.CancelFunc) {
	tmp, err := os.MkdirTemp("", "bt-")
	if err != nil {
		tmp = dir // chromium reports the folder it cannot use
	}
	opts := []chromedp.ExecAllocatorOption{
		chromedp.Env("TMPDIR=" + tmp),
		chromedp.ExecPath(exe),
		chromedp.Headless,
		chromedp.NoSandbox,
		chromedp.DisableGPU,
		chromedp.NoFirstRun,
		chromedp.NoDefaultBrowserCheck,
		chromedp.Flag("disable-quic", true),
		chromedp.Flag("disable-background-networking", true),
		chromedp.Flag("disable-component-update", true),
		chromedp.Flag("disable-sync", true),
		chromedp.Flag("disable-dev-shm-usage", true),
		chromedp.Flag("disable-extensions", true),
		chromedp.Flag("hide-scrollbars", true),
		chromedp.Flag("mute-audio", true),
		// A tab under test renders and runs its timers at full rate
		// whatever the browser thinks of its visibility (a loaded
		// machine, another tab opened by an earlier test).
		chromedp.Flag("disable-renderer-backgrounding", true),
		chromedp.Flag("disable-background-timer-throttling", true),
		chromedp.Flag("disable-backgrounding-occluded-windows", true),
		chromedp.WindowSize(1280, 900),
		chromedp.UserDataDir(dir),
	}
	alloc, cancelAlloc := chromedp.NewExecAllocator(context.Background(), opts...)
	ctx, cancel := chromedp.NewContext(alloc)
	return ctx, func() {
		cancel()
		cancelAlloc()
		if tmp != dir {
			os.RemoveAll(tmp)
		}
	}
}

// The browser Main shares.
var (
	mainRunning bool
	shared      struct {
		once   sync.Once
		ctx    context.Context
		cancel context.CancelFunc
		dir    string
		err    error
	}
)

func sharedBrowser(exe string) (context.Context, error) {
	shared.once.Do(func() {
		shared.dir, shared.err = os.MkdirTemp("", "browsertest-")
		if shared.err != nil {
			return
		}
		shared.ctx, shared.cancel = newBrowser(exe, shared.dir)
		shared.err = chromedp.Do(shared.ctx)
	})
	return shared.ctx, shared.err
}

// Main runs a test binary's tests (call it from TestMain) with one
// browser for all of them, and ends the browser after them; the tests'
// temporary folders are testtier.Main's.
func Main(m *testing.M) int {
	mainRunning = true
	return testtier.Main(m, func() {
		if shared.cancel != nil {
			shared.cancel()
		}
		if shared.dir != "" {
			os.RemoveAll(shared.dir)
		}
	})
}

// Tab is a browser tab for one test.
type Tab struct {
	Ctx context.Context
	t   testing.TB

	mu       sync.Mutex
	requests []string // every request URL, as asked
	refused  []string // those refused
	allow    func(url string) bool

	trap *httptest.Server
	hits []string
}

// Open starts a browser with one tab for t, or skips t. allow says
// which requests may go through (nil: only the page's own file:// URL,
// data: and about: URLs; see Tab.Allowed).
func Open(t testing.TB, allow func(url string) bool) *Tab {
	t.Helper()
	if testing.Short() {
		t.Skip("browser tests do not run with -short")
	}
	exe := ExecPath()
	if exe == "" {
		t.Skip("no chromium to run (install Debian's chromium, or set CHROMIUM)")
	}
	tab := &Tab{t: t, allow: allow}
	tab.trap = httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		tab.mu.Lock()
		tab.hits = append(tab.hits, r.Method+" "+r.URL.String())
		tab.mu.Unlock()
		http.Error(w, "trap", http.StatusTeapot)
	}))
	t.Cleanup(tab.trap.Close)
	var ctx context.Context
	if mainRunning {
		bctx, err := sharedBrowser(exe)
		if err != nil {
			t.Skipf("chromium does not start: %v", err)
		}
		var cancel context.CancelFunc
		ctx, cancel = chromedp.NewContext(bctx) // a new tab
		t.Cleanup(cancel)
	} else {
		bctx, cancel := newBrowser(exe, filepath.Join(t.TempDir(), "profile"))
		t.Cleanup(cancel)
		ctx = bctx
	}
	if err := chromedp.Do(ctx); err != nil {
		t.Skipf("chromium does not start: %v", err)
	}
	tab.Ctx = ctx
	// The test's tab is the one in front (a background tab does not
	// paint, and requestAnimationFrame waits for paints).
	if _, err := chromedp.Call(ctx, page.BringToFront, cdp.Empty{}); err != nil {
		t.Fatalf("browsertest: Page.bringToFront: %v", err)
	}
	// Every request is paused here first: allowed ones go on, the others
	// fail (and are recorded).
	paused := chromedp.Events(ctx, fetch.RequestPaused)
	go func() {
		for ev, err := range paused {
			if err != nil {
				return
			}
			url := ev.Request.URL
			ok := tab.Allowed(url)
			tab.mu.Lock()
			tab.requests = append(tab.requests, url)
			if !ok {
				tab.refused = append(tab.refused, url)
			}
			tab.mu.Unlock()
			if ok {
				chromedp.Call(ctx, fetch.ContinueRequest, fetch.ContinueRequestParams{RequestID: ev.RequestID})
			} else {
				chromedp.Call(ctx, fetch.FailRequest, fetch.FailRequestParams{RequestID: ev.RequestID, ErrorReason: network.ErrorReasonBlockedByClient})
			}
		}
	}()
	if _, err := chromedp.Call(ctx, fetch.Enable, fetch.EnableParams{Patterns: []*fetch.RequestPattern{{URLPattern: "*"}}}); err != nil {
		t.Fatalf("browsertest: Fetch.enable: %v", err)
	}
	// A listener, before any page script, for messages a frame posts to
	// the page (what a script that ran in a sandboxed frame could still
	// do): window.__messages.
	if _, err := chromedp.Call(ctx, page.AddScriptToEvaluateOnNewDocument, page.AddScriptToEvaluateOnNewDocumentParams{
		Source: `window.__messages = []; window.addEventListener("message", function (e) { window.__messages.push(String(e.data)); });`,
	}); err != nil {
		t.Fatalf("browsertest: %v", err)
	}
	return tab
}

// Allowed reports whether the tab lets a request for url go through.
func (tab *Tab) Allowed(url string) bool {
	if tab.allow != nil {
		return tab.allow(url)
	}
	return strings.HasPrefix(url, "file://") && !strings.Contains(url, "..") || strings.HasPrefix(url, "data:") || strings.HasPrefix(url, "about:")
}

// Trap is the URL of the trap server (no trailing slash).
func (tab *Tab) Trap() string { return tab.trap.URL }

// Requests are the URLs the tab asked for so far.
func (tab *Tab) Requests() []string {
	tab.mu.Lock()
	defer tab.mu.Unlock()
	return append([]string(nil), tab.requests...)
}

// NoRequests fails the test for each request the tab refused and each
// that reached the trap.
func (tab *Tab) NoRequests() {
	tab.t.Helper()
	tab.mu.Lock()
	defer tab.mu.Unlock()
	for _, u := range tab.refused {
		tab.t.Errorf("the page asked for %s", short(u))
	}
	for _, h := range tab.hits {
		tab.t.Errorf("a request reached the trap server: %s", h)
	}
}

func short(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// Navigate opens url and waits for its load event.
func (tab *Tab) Navigate(url string) {
	tab.t.Helper()
	ctx, cancel := context.WithTimeout(tab.Ctx, 2*time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, chromedp.Navigate(url)); err != nil {
		tab.t.Fatalf("browsertest: open %s: %v", short(url), err)
	}
}

// OpenFile opens a file by its file:// URL.
func (tab *Tab) OpenFile(path string) {
	tab.t.Helper()
	abs, err := filepath.Abs(path)
	if err != nil {
		tab.t.Fatal(err)
	}
	tab.Navigate("file://" + abs)
}

// Eval evaluates a JavaScript expression in the page and decodes its
// value into a T.
func Eval[T any](tab *Tab, js string) T {
	tab.t.Helper()
	ctx, cancel := context.WithTimeout(tab.Ctx, 3*time.Minute)
	defer cancel()
	v, err := chromedp.Run(ctx, chromedp.Evaluate[T](js, chromedp.EvalAwaitPromise))
	if err != nil {
		tab.t.Fatalf("browsertest: %s: %v", short(js), err)
	}
	return v
}

// Do runs actions in the tab.
func (tab *Tab) Do(actions ...chromedp.Action[chromedp.Void]) {
	tab.t.Helper()
	ctx, cancel := context.WithTimeout(tab.Ctx, time.Minute)
	defer cancel()
	if err := chromedp.Do(ctx, actions...); err != nil {
		tab.t.Fatalf("browsertest: %v", err)
	}
}

// Screenshot saves the tab's view as NAME.png in the test's TempDir,
// and in $REVIEW_SHOTS, returning the first path. full takes the whole
// page (at most 12,000 pixels down): the view is made that tall first,
// so that what renders only near the view (lazy frames, cells with
// content-visibility) is drawn, as a reader scrolling would see it.
// The picture is taken only where someone can look at it — with
// $REVIEW_SHOTS set, or in the long tier (internal/testtier) — and ""
// returned otherwise; the page is made as tall and left to render
// either way, so what a test checks after it sees the same page.
func (tab *Tab) Screenshot(name string, full bool) string {
	tab.t.Helper()
	ctx, cancel := context.WithTimeout(tab.Ctx, time.Minute)
	defer cancel()
	if full {
		h := Eval[int](tab, `Math.ceil(document.documentElement.scrollHeight)`)
		w := Eval[int](tab, `window.innerWidth`)
		if err := chromedp.Do(ctx, chromedp.EmulateViewport(int64(w), int64(min(max(h, 100), 12000))), chromedp.Sleep(400*time.Millisecond)); err != nil {
			tab.t.Fatalf("browsertest: %v", err)
		}
		defer chromedp.Do(ctx, chromedp.ResetViewport())
	}
	if os.Getenv("REVIEW_SHOTS") == "" && !testtier.Full() {
		return ""
	}
	png, err := chromedp.Run(ctx, chromedp.CaptureScreenshot())
	if err != nil {
		tab.t.Fatalf("browsertest: screenshot: %v", err)
	}
	p := filepath.Join(tab.t.TempDir(), name+".png")
	if err := os.WriteFile(p, png, 0o666); err != nil {
		tab.t.Fatal(err)
	}
	if dir := os.Getenv("REVIEW_SHOTS"); dir != "" {
		if err := os.MkdirAll(dir, 0o777); err == nil {
			os.WriteFile(filepath.Join(dir, name+".png"), png, 0o666)
		}
	}
	return p
}

// Logf logs on the tab's test.
func (tab *Tab) Logf(format string, args ...any) { tab.t.Logf(format, args...) }

// Messages are the messages frames posted to the page.
func (tab *Tab) Messages() []string { return Eval[[]string](tab, `window.__messages || []`) }

func (tab *Tab) String() string { return fmt.Sprintf("tab of %s", tab.t.Name()) }

// Wait waits until the JavaScript expression js is true (a minute at
// most).
func (tab *Tab) Wait(js string) {
	tab.t.Helper()
	ctx, cancel := context.WithTimeout(tab.Ctx, time.Minute)
	defer cancel()
	if _, err := chromedp.Run(ctx, chromedp.Poll[bool](js)); err != nil {
		tab.t.Fatalf("browsertest: waiting for %s: %v", short(js), err)
	}
}
