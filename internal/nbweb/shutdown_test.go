// Tests of the server's stop when a client says it is done.
package nbweb

import (
	"io"
	"net/http"
	"strings"
	"sync/atomic"
	"testing"
	"time"
)

// slowSaveApp is a page whose save blocks until release is closed; its
// exit status is 0 once a save has ended, 1 before.
type slowSaveApp struct {
	started, release chan struct{}
	saved            atomic.Bool
}

func (a *slowSaveApp) page() ([]byte, error) { return []byte("<!DOCTYPE html>"), nil }

func (a *slowSaveApp) action(name string, _ []byte) (any, bool) {
	if name != "save" {
		return nil, false
	}
	close(a.started)
	<-a.release
	a.saved.Store(true)
	return map[string]string{"saved": "yes"}, true
}

func (a *slowSaveApp) status() int {
	if a.saved.Load() {
		return exitOK
	}
	return 1
}

// A bye that says the client is done ({"done": true}) stops the server,
// without the grace a page's bye has (a reload says bye, then speaks
// again) and though the page still speaks — but never under a save in flight: the save ends, its answer
// is sent, and the exit status counts it.
func TestServerDoneWaitsForSaveInFlight(t *testing.T) {
	t.Parallel()
	app := &slowSaveApp{started: make(chan struct{}), release: make(chan struct{})}
	var stdout, stderr syncBuffer
	done := make(chan int, 1)
	go func() { done <- serve(&stdout, &stderr, app, false) }()
	waitFor(t, "the address", func() bool { return strings.HasSuffix(stdout.String(), "/\n") })
	page := strings.TrimSpace(stdout.String())
	post := func(action, body string) (int, string, error) {
		req, _ := http.NewRequest("POST", page+action, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			return 0, "", err
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b), nil
	}
	type answer struct {
		code int
		body string
		err  error
	}
	saved := make(chan answer, 1)
	go func() { c, b, err := post("save", "{}"); saved <- answer{c, b, err} }()
	select {
	case <-app.started:
	case <-time.After(30 * time.Second):
		t.Fatal("the save did not start")
	}
	// The page still speaks: without the client's word the server would
	// not stop.
	stopAlive := make(chan struct{})
	defer close(stopAlive)
	go func() {
		for {
			post("alive", "{}")
			select {
			case <-stopAlive:
				return
			case <-time.After(500 * time.Millisecond):
			}
		}
	}()
	if code, _, err := post("bye", `{"done": true}`); err != nil || code != http.StatusNoContent {
		t.Fatalf("bye: %d %v", code, err)
	}
	select {
	case c := <-done:
		t.Fatalf("the server stopped (exit %d) under a save in flight", c)
	case <-time.After(300 * time.Millisecond):
	}
	close(app.release)
	select {
	case a := <-saved:
		if a.err != nil || a.code != http.StatusOK || !strings.Contains(a.body, `"saved":"yes"`) {
			t.Errorf("the save in flight was answered %d %q %v", a.code, a.body, a.err)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the save in flight was never answered")
	}
	select {
	case c := <-done:
		if c != exitOK {
			t.Errorf("exit status %d, want 0 (the save counted)", c)
		}
	case <-time.After(30 * time.Second):
		t.Fatal("the server did not stop after the client said it was done")
	}
}
