package main

// Tests of ipynb web: the server answers only its own page, merges are resolved
// and saved (or left unsaved), and it ends with its command.

import (
	"bufio"
	"encoding/json"
	"io"
	"net/http"
	"os"
	"os/exec"
	"path/filepath"
	"runtime"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
	"github.com/nbdialog/ipynb/internal/browsertest"
	"github.com/nbdialog/ipynb/internal/testtier"
)

// webBuilt is closed when the build of ipynb-web that TestMain starts
// (startWebBuild) has ended, with its output and error.
var (
	webBuilt    = make(chan struct{})
	webBuiltOut []byte
	webBuiltErr error
)

// startWebBuild builds ipynb-web beside the ipynb binary the tests run,
// where ipynb web looks for it, while the first tests run.
func startWebBuild() {
	go func() {
		defer close(webBuilt)
		cmd := exec.Command("go", "build", "-o", filepath.Join(filepath.Dir(binary), "ipynb-web"), "../ipynb-web")
		cmd.Env = toolEnv
		webBuiltOut, webBuiltErr = cmd.CombinedOutput()
	}()
}

// buildWeb waits for ipynb-web to be built.
func buildWeb(t *testing.T) {
	t.Helper()
	<-webBuilt
	if webBuiltErr != nil {
		t.Fatalf("building ipynb-web: %v\n%s", webBuiltErr, webBuiltOut)
	}
}

// webProcess runs ipynb web in dir and returns the address it serves and
// a wait for its exit status.
func webProcess(t *testing.T, dir string, args ...string) (url string, wait func() int) {
	t.Helper()
	buildWeb(t)
	cmd := exec.Command(binary, append([]string{"web"}, args...)...)
	cmd.Dir = dir
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cmd.WaitDelay = 10 * time.Second // Wait ends even if a process left holds a pipe
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan int, 1)
	exited := false
	t.Cleanup(func() {
		if exited {
			return
		}
		// Stop it as Ctrl-C would (ipynb forwards the signal to the
		// server), then by force; never wait forever on a process that
		// holds the pipe.
		cmd.Process.Signal(syscall.SIGTERM)
		select {
		case <-done:
			return
		case <-time.After(10 * time.Second):
		}
		cmd.Process.Kill()
		select {
		case <-done:
		case <-time.After(10 * time.Second):
			t.Errorf("ipynb web still holds its output 10 s after it was killed (its server outlived it)")
		}
	})
	line, err := bufio.NewReader(out).ReadString('\n')
	go func() {
		io.Copy(io.Discard, out)
		err := cmd.Wait()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		done <- code
	}()
	if err != nil {
		t.Fatalf("ipynb web printed no address: %v (%s)", err, stderr.String())
	}
	wait = func() int {
		select {
		case c := <-done:
			exited = true
			return c
		case <-time.After(20 * time.Second):
			t.Fatalf("ipynb web did not stop; stderr: %s", stderr.String())
			return -1
		}
	}
	return strings.TrimSpace(line), wait
}

// The server answers only its token, its own host name, and posts of
// JSON from its own origin; it stops when the page says it closed.
func TestWebServerRefuses(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "nb.ipynb"), []byte(htmlNotebook), 0o666)
	url, wait := webProcess(t, dir, "nb.ipynb")
	if !strings.HasPrefix(url, "http://127.0.0.1:") || len(url) < len("http://127.0.0.1:1/")+32 {
		t.Fatalf("address %q: want loopback with a token", url)
	}
	host := strings.TrimPrefix(url, "http://")
	host = host[:strings.IndexByte(host, '/')]
	do := func(method, u, ctype, origin, hostHeader string) int {
		req, _ := http.NewRequest(method, u, strings.NewReader("{}"))
		if ctype != "" {
			req.Header.Set("Content-Type", ctype)
		}
		if origin != "" {
			req.Header.Set("Origin", origin)
		}
		if hostHeader != "" {
			req.Host = hostHeader
		}
		resp, err := http.DefaultClient.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		return resp.StatusCode
	}
	for _, c := range []struct {
		name                            string
		method, url, ctype, origin, hdr string
		want                            int
	}{
		{"the page", "GET", url, "", "", "", 200},
		{"no token", "GET", "http://" + host + "/", "", "", "", 404},
		{"a wrong token", "GET", "http://" + host + "/" + strings.Repeat("0", 32) + "/", "", "", "", 404},
		{"another host name (DNS rebinding)", "GET", url, "", "", "evil.example:80", 404},
		{"a post that is not JSON", "POST", url + "alive", "text/plain", "", "", 403},
		{"a post from another origin", "POST", url + "alive", "application/json", "http://evil.example", "", 403},
		{"a heartbeat", "POST", url + "alive", "application/json", "http://" + host, "", 204},
		{"an unknown action", "POST", url + "save", "application/json", "", "", 404},
	} {
		if got := do(c.method, c.url, c.ctype, c.origin, c.hdr); got != c.want {
			t.Errorf("%s: status %d, want %d", c.name, got, c.want)
		}
	}
	resp, err := http.Get(url)
	if err != nil {
		t.Fatal(err)
	}
	page, _ := io.ReadAll(resp.Body)
	resp.Body.Close()
	if !strings.Contains(string(page), "connect-src &#39;self&#39;") || resp.Header.Get("X-Frame-Options") != "DENY" {
		t.Errorf("the page's policy: headers %v", resp.Header)
	}
	if code := sayBye(t, url); code != 204 {
		t.Fatalf("bye refused: %d", code)
	}
	if code := wait(); code != 0 {
		t.Errorf("exit status %d after the page closed, want 0", code)
	}
}

// byeBody is what the tests' page says when it closes: that its client
// is done ({"done": true}: the server stops at once); in the long tier,
// what a browser's page says ({}: the server stops after its grace, as a
// reload would not let it).
func byeBody() string {
	if testtier.Full() {
		return "{}"
	}
	return `{"done": true}`
}

// sayBye posts byeBody to the page at url and returns the answer's
// status.
func sayBye(t *testing.T, url string) int {
	t.Helper()
	req, _ := http.NewRequest("POST", url+"bye", strings.NewReader(byeBody()))
	req.Header.Set("Content-Type", "application/json")
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	return resp.StatusCode
}

// mergeInputs writes base, ours and theirs of a notebook whose one code
// cell both sides changed, text and output.
func mergeInputs(t *testing.T, dir string) {
	nb := func(src, out string) string {
		return `{"nbformat": 4, "nbformat_minor": 5, "metadata": {"kernelspec": {"name": "python3", "display_name": "Python 3", "language": "python"}}, "cells": [
 {"cell_type": "markdown", "id": "intro", "metadata": {}, "source": "# Intro"},
 {"cell_type": "code", "id": "calc", "metadata": {}, "execution_count": 1, "source": "` + src + `", "outputs": [{"output_type": "stream", "name": "stdout", "text": "` + out + `\n"}]}
]}
`
	}
	os.WriteFile(filepath.Join(dir, "base.ipynb"), []byte(nb("x = 1", "1")), 0o666)
	os.WriteFile(filepath.Join(dir, "ours.ipynb"), []byte(nb("x = 2", "2")), 0o666)
	os.WriteFile(filepath.Join(dir, "theirs.ipynb"), []byte(nb("x = 3", "3")), 0o666)
}

// A merge resolved in the browser: theirs' text, both outputs, saved.
func TestBrowserWebMerge(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mergeInputs(t, dir)
	var url string
	tab := browsertest.Open(t, func(u string) bool { return strings.HasPrefix(u, url) || strings.HasPrefix(u, "data:") })
	url, wait := webProcess(t, dir, "--merge", "base.ipynb", "ours.ipynb", "theirs.ipynb")
	tab.Navigate(url)
	tab.Wait(`document.querySelector(".nb-status").textContent.includes("0 of 2")`)
	titles := browsertest.Eval[[]string](tab, `[...document.querySelectorAll("section.nb-conflict .nb-dhead")].map(h => h.innerText)`)
	if len(titles) != 2 || !strings.Contains(titles[0], "cell 2 · code · content") || !strings.Contains(titles[1], "outputs") {
		t.Fatalf("conflicts %q", titles)
	}
	// The editor starts with both versions between markers.
	if ed := browsertest.Eval[string](tab, `document.querySelector("#nb-x1 textarea").value`); !strings.Contains(ed, "<<<<<<< ours\nx = 2\n=======\nx = 3\n>>>>>>> theirs") {
		t.Errorf("editor %q", ed)
	}
	tab.Screenshot("merge-conflict", true)
	tab.Do(chromedp.Click(chromedp.CSS(`#nb-x1 button[data-choice=theirs]`)))
	tab.Wait(`document.querySelector(".nb-status").textContent.startsWith("1 of 2 conflicts resolved · notebook valid")`)
	if ed := browsertest.Eval[string](tab, `document.querySelector("#nb-x1 textarea").value`); ed != "x = 3" {
		t.Errorf("editor after theirs: %q", ed)
	}
	// An edit by hand that leaves a marker is not a resolution.
	tab.Do(chromedp.SendKeys(chromedp.CSS("#nb-x1 textarea"), "\n=======\n"))
	tab.Wait(`document.querySelector(".nb-status").textContent.startsWith("0 of 2")`)
	tab.Do(chromedp.Click(chromedp.CSS(`#nb-x1 button[data-choice=theirs]`)), chromedp.Click(chromedp.CSS(`#nb-x2 button[data-choice=both]`)))
	tab.Wait(`document.querySelector(".nb-status").textContent.startsWith("2 of 2 conflicts resolved · notebook valid")`)
	tab.Screenshot("merge-resolved", true)
	tab.Do(chromedp.Click(chromedp.CSS(`button.nb-save`)))
	tab.Wait(`document.querySelector(".nb-saved").textContent.startsWith("saved into ours.ipynb (2 of 2")`)
	if code := wait(); code != 0 {
		t.Errorf("exit status %d, want 0 (resolved)", code)
	}
	data, err := os.ReadFile(filepath.Join(dir, "ours.ipynb"))
	if err != nil {
		t.Fatal(err)
	}
	var nb struct {
		Cells []struct {
			Source  string `json:"source"`
			Outputs []struct {
				Text string `json:"text"`
			} `json:"outputs"`
		} `json:"cells"`
	}
	if err := json.Unmarshal(data, &nb); err != nil {
		t.Fatalf("saved file: %v\n%s", err, data)
	}
	if len(nb.Cells) != 2 || nb.Cells[1].Source != "x = 3" || len(nb.Cells[1].Outputs) != 2 ||
		nb.Cells[1].Outputs[0].Text != "2\n" || nb.Cells[1].Outputs[1].Text != "3\n" {
		t.Errorf("saved notebook:\n%s", data)
	}
	tab.NoRequests()
}

// Closing the page without saving: OURS is left as it was, exit 1.
func TestWebMergeClosedUnsaved(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	mergeInputs(t, dir)
	before, _ := os.ReadFile(filepath.Join(dir, "ours.ipynb"))
	url, wait := webProcess(t, dir, "--merge", "base.ipynb", "ours.ipynb", "theirs.ipynb")
	sayBye(t, url)
	if code := wait(); code != 1 {
		t.Errorf("exit status %d, want 1 (not resolved)", code)
	}
	if after, _ := os.ReadFile(filepath.Join(dir, "ours.ipynb")); string(after) != string(before) {
		t.Error("ours changed without a save")
	}
}

// ipynb web killed by a signal it cannot forward (SIGKILL) does not leave
// its server running: on Linux the server gets SIGTERM when ipynb dies,
// stops serving and lets go of ipynb's standard output.
func TestWebServerEndsWithItsCommand(t *testing.T) {
	if runtime.GOOS != "linux" {
		t.Skip("the parent-death signal is Linux's")
	}
	buildWeb(t)
	dir := t.TempDir()
	os.WriteFile(filepath.Join(dir, "nb.ipynb"), []byte(htmlNotebook), 0o666)
	cmd := exec.Command(binary, "web", "nb.ipynb")
	cmd.Dir = dir
	var stderr strings.Builder
	cmd.Stderr = &stderr
	cmd.WaitDelay = time.Minute // a bound, far beyond the test's
	out, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	r := bufio.NewReader(out)
	line, err := r.ReadString('\n')
	if err != nil {
		cmd.Process.Kill()
		t.Fatalf("ipynb web printed no address: %v", err)
	}
	url := strings.TrimSpace(line)
	if resp, err := http.Get(url); err != nil {
		t.Fatalf("the server does not answer before the kill: %v", err)
	} else {
		resp.Body.Close()
	}
	cmd.Process.Kill()
	// Wait ends when the last process holding the standard error (which
	// the server shares with ipynb) has let go of it.
	waited := make(chan error, 1)
	go func() { io.Copy(io.Discard, r); waited <- cmd.Wait() }()
	select {
	case <-waited:
	case <-time.After(10 * time.Second):
		t.Error("10 s after ipynb web was killed, its server still holds the standard error")
	}
	// (The server stops on its SIGTERM, which a loaded machine may
	// deliver after the standard error is let go: it has 10 s.)
	client := http.Client{Timeout: 2 * time.Second}
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(100 * time.Millisecond) {
		resp, err := client.Get(url)
		if err != nil {
			break
		}
		resp.Body.Close()
		if time.Now().After(deadline) {
			t.Fatalf("10 s after ipynb web was killed, the server still answers: %s", resp.Status)
		}
	}
}
