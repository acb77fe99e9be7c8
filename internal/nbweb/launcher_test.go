package nbweb

// Tests that --open never gives the browser the page's address, whose token
// others could read.

import (
	"bytes"
	"context"
	"net/http"
	"net/url"
	"os"
	"path/filepath"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/nbdialog/ipynb/internal/browsertest"

	"github.com/nbdialog/ipynb/internal/nbtest"
)

// syncBuffer is a bytes.Buffer safe for a writer and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// waitFor polls f for up to 30 s.
func waitFor(t *testing.T, what string, f func() bool) {
	t.Helper()
	for deadline := time.Now().Add(30 * time.Second); !f(); time.Sleep(20 * time.Millisecond) {
		if time.Now().After(deadline) {
			t.Fatalf("waiting for %s: timed out", what)
		}
	}
}

// --open never gives the browser the page's address, whose token every
// user of the machine could then read in the browser's command line: it
// gives it a page of its own (a file only this user may read, in a folder
// only this user may open) that sends the browser on, and removes it when
// the server stops. In a real browser the launcher leads to the page.
func TestOpenHidesToken(t *testing.T) {
	dir := t.TempDir()
	rec := filepath.Join(dir, "args")
	browser := filepath.Join(dir, "browser")
	nbtest.WriteExecutable(t, browser, []byte("#!/bin/sh\nprintf '%s\\n' \"$@\" >> '"+rec+"'\n"))
	t.Setenv("BROWSER", browser)
	var stdout, stderr syncBuffer
	done := make(chan int)
	// The server's waits shortened: the bye at the end stops it after
	// 100 ms, not ipynb web's 3 s.
	waits := serverWaits{tick: 20 * time.Millisecond, silence: defaultWaits.silence, byeGrace: 100 * time.Millisecond, shutdown: defaultWaits.shutdown}
	go func() {
		done <- serveWaiting(&stdout, &stderr, pageApp{[]byte("<!DOCTYPE html><title>served</title>")}, true, waits)
	}()
	waitFor(t, "the address", func() bool { return strings.HasSuffix(stdout.String(), "/\n") })
	page := strings.TrimSpace(stdout.String())
	token := strings.Trim(page[strings.LastIndex(page[:len(page)-1], "/"):], "/")
	if len(token) != 32 {
		t.Fatalf("address %q: no token", page)
	}
	waitFor(t, "the browser", func() bool { b, _ := os.ReadFile(rec); return len(b) > 0 })
	args, _ := os.ReadFile(rec)
	if strings.Contains(string(args), token) {
		t.Errorf("the browser's arguments %q hold the token", args)
	}
	u, err := url.Parse(strings.TrimSpace(string(args)))
	if err != nil || u.Scheme != "file" {
		t.Fatalf("the browser was given %q, want the launcher's file URL", args)
	}
	fi, err := os.Stat(u.Path)
	if err != nil {
		t.Fatal(err)
	}
	di, _ := os.Stat(filepath.Dir(u.Path))
	if fi.Mode().Perm() != 0o600 || di.Mode().Perm() != 0o700 {
		t.Errorf("launcher mode %v in a folder of mode %v, want 0600 in 0700", fi.Mode().Perm(), di.Mode().Perm())
	}
	l, _ := os.ReadFile(u.Path)
	if !bytes.Contains(l, []byte(`<meta http-equiv="refresh" content="0;url=`+page+`">`)) || !bytes.Contains(l, []byte(`content="default-src 'none'"`)) {
		t.Errorf("launcher:\n%s", l)
	}
	if browsertest.ExecPath() != "" && !testing.Short() {
		tab := browsertest.Open(t, func(s string) bool { return strings.HasPrefix(s, "file://") || strings.HasPrefix(s, page) })
		tab.Navigate(u.String())
		// The launcher's refresh replaces the document an evaluation runs
		// in: ask again until the page is there.
		js := `location.href === ` + "`" + page + "`" + ` && document.title === "served"`
		waitFor(t, "the page, through the launcher", func() bool {
			ctx, cancel := context.WithTimeout(tab.Ctx, 5*time.Second)
			defer cancel()
			ok, err := chromedp.Run(ctx, chromedp.Evaluate[bool](js))
			return err == nil && ok
		})
		tab.NoRequests()
	}
	req, _ := http.NewRequest("POST", page+"bye", strings.NewReader("{}"))
	req.Header.Set("Content-Type", "application/json")
	if resp, err := http.DefaultClient.Do(req); err != nil {
		t.Fatal(err)
	} else {
		resp.Body.Close()
	}
	select {
	case <-done:
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not stop after the page said bye")
	}
	if _, err := os.Stat(filepath.Dir(u.Path)); !os.IsNotExist(err) {
		t.Errorf("the launcher's folder is left: %v", err)
	}
}
