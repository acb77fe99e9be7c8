package main

// Tests of git difftool and git mergetool with ipynb's tools, through a fake
// browser, and of the tools without ipynb-web.

import (
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os"
	"os/exec"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/nbdialog/ipynb/internal/nbtest"
)

// git difftool -t ipynb and git mergetool -t ipynb, with the real git in
// a repository set up by ipynb git install, and a fake browser ($BROWSER:
// a script that records the address its launcher page leads to); the page's server is
// reached over loopback by a Go HTTP client, as the page's script would
// reach it.
func TestGitDifftoolMergetool(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	buildWeb(t)
	tmp := t.TempDir()
	urls := filepath.Join(tmp, "urls")
	browser := filepath.Join(tmp, "browser")
	// The browser is given a launcher page (file://…, see nbweb's
	// launcher) that sends it on to the page's address: record that.
	nbtest.WriteExecutable(t, browser, []byte("#!/bin/sh\nsed -n 's/.*content=\"0;url=\\([^\"]*\\)\".*/\\1/p' \"${1#file://}\" >> \""+urls+"\"\n"))
	setTestEnv(t, "BROWSER", browser)
	if r := ipynb(t, dir, "", "git", "install"); r.code != 0 || !strings.Contains(r.stdout, "set local mergetool.ipynb.trustExitCode = true") || strings.Contains(r.stdout, "ipynb-web is not installed") {
		t.Fatalf("install: %+v", r)
	}
	st := ipynb(t, dir, "", "git", "status")
	for _, l := range []string{"difftool.ipynb.cmd", "mergetool.ipynb.cmd", "mergetool.ipynb.trustExitCode true", "git difftool/mergetool -t ipynb open their pages with " + filepath.Join(filepath.Dir(binary), "ipynb-web")} {
		if st.code != 0 || !strings.Contains(st.stdout, l) {
			t.Errorf("git status: no %q:\n%s", l, st.stdout)
		}
	}
	commitFile(t, dir, "nb.ipynb", []byte(mknbText(t, "x = 1", "base")), "base")
	gitIn(t, dir, "checkout", "-q", "-b", "theirs")
	commitFile(t, dir, "nb.ipynb", []byte(mknbText(t, "x = 1", "theirs")), "theirs")
	gitIn(t, dir, "checkout", "-q", "main")
	commitFile(t, dir, "nb.ipynb", []byte(mknbText(t, "x = 1", "ours")), "ours")

	// difftool: the diff page of the two versions; closing it ends the
	// tool.
	tool := startGit(t, dir, "difftool", "-t", "ipynb", "--no-prompt", "main~1", "main")
	page := nextURL(t, urls, 1)
	if body := get(t, page); !strings.Contains(body, "ours") || !strings.Contains(body, "base") {
		t.Errorf("the difftool page does not show the change base → ours")
	}
	post(t, page, "bye", byeBody())
	if code := tool(); code != 0 {
		t.Errorf("git difftool: exit %d", code)
	}

	// mergetool: both sides changed cell 2; the merge page resolves the
	// conflict with theirs and saves into the work tree's file, which git
	// then takes as resolved (trustExitCode).
	if out, code := gitStatusIn(t, dir, "merge", "theirs"); code == 0 {
		t.Fatalf("git merge did not conflict:\n%s", out)
	}
	if s := gitIn(t, dir, "status", "--porcelain"); !strings.HasPrefix(s, "UU nb.ipynb") {
		t.Fatalf("not unmerged: %q", s)
	}
	tool = startGit(t, dir, "mergetool", "-t", "ipynb", "--no-prompt")
	page = nextURL(t, urls, 2)
	if body := get(t, page); !strings.Contains(body, "nb-conflict") || !strings.Contains(body, "theirs") {
		t.Errorf("the mergetool page shows no conflict")
	}
	if ans := post(t, page, "check", `{"resolutions": [{"choice": "theirs", "text": "theirs"}]}`); ans["resolved"] != 1.0 || ans["valid"] != true {
		t.Errorf("check: %v", ans)
	}
	if ans := post(t, page, "save", `{"resolutions": [{"choice": "theirs", "text": "theirs"}]}`); !strings.Contains(ans["saved"].(string), "nb.ipynb") {
		t.Errorf("save: %v", ans)
	}
	if code := tool(); code != 0 {
		t.Errorf("git mergetool: exit %d", code)
	}
	if s := gitIn(t, dir, "status", "--porcelain", "--untracked-files=no"); s != "M  nb.ipynb\n" {
		t.Errorf("after mergetool, git status: %q (want the merge resolved and staged)", s)
	}
	nb := decodeJSON(t, []byte(readFile(t, filepath.Join(dir, "nb.ipynb"))))
	if got := cellOf(nb, 1)["source"]; got != "theirs" && !sameLines(got, "theirs") {
		t.Errorf("cell 2 saved as %v, want theirs", got)
	}
	validNotebook(t, []byte(readFile(t, filepath.Join(dir, "nb.ipynb"))))
	gitIn(t, dir, "commit", "-q", "--no-edit")

	// Uninstall removes them.
	if r := ipynb(t, dir, "", "git", "uninstall"); r.code != 0 {
		t.Fatalf("uninstall: %+v", r)
	}
	for _, k := range []string{"difftool.ipynb.cmd", "mergetool.ipynb.cmd", "mergetool.ipynb.trustExitCode"} {
		if out, code := gitStatusIn(t, dir, "config", "--get", k); code != 1 {
			t.Errorf("after uninstall, %s = %s", k, out)
		}
	}
	if cfg := readFile(t, filepath.Join(dir, ".git", "config")); strings.Contains(cfg, "tool \"ipynb\"") {
		t.Errorf("sections left:\n%s", cfg)
	}
}

// Without ipynb-web beside ipynb or on the PATH, install says the tools
// need it (the drivers do not), and status says so too.
func TestGitToolsWithoutWebProgram(t *testing.T) {
	t.Parallel()
	dir := newRepo(t)
	alone := filepath.Join(t.TempDir(), "ipynb")
	copyFile(t, binary, alone)
	setTestEnv(t, "PATH", "/usr/bin:/bin")
	cmd := exec.Command(alone, "git", "install")
	cmd.Dir = dir
	cmd.Env = testEnv(t)
	out, err := cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "note: the server program ipynb-web is not installed") {
		t.Errorf("install: %v\n%s", err, out)
	}
	cmd = exec.Command(alone, "git", "status")
	cmd.Dir = dir
	cmd.Env = testEnv(t)
	out, err = cmd.CombinedOutput()
	if err != nil || !strings.Contains(string(out), "git difftool -t ipynb and git mergetool -t ipynb fail until it is") || !strings.Contains(string(out), "ipynb merges and diffs notebooks here") {
		t.Errorf("status: %v\n%s", err, out)
	}
}

func sameLines(v any, text string) bool {
	ls, ok := v.([]any)
	if !ok {
		return false
	}
	var b strings.Builder
	for _, l := range ls {
		s, _ := l.(string)
		b.WriteString(s)
	}
	return b.String() == text
}

// startGit starts git in dir and returns a wait for its exit status.
func startGit(t *testing.T, dir string, args ...string) func() int {
	t.Helper()
	cmd := exec.Command("git", args...)
	cmd.Dir = dir
	cmd.Env = testEnv(t)
	var out strings.Builder
	cmd.Stdout, cmd.Stderr = &out, &out
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	done := make(chan int, 1)
	go func() {
		err := cmd.Wait()
		code := 0
		if ee, ok := err.(*exec.ExitError); ok {
			code = ee.ExitCode()
		}
		done <- code
	}()
	waited := false
	t.Cleanup(func() {
		if !waited {
			cmd.Process.Kill()
			<-done
		}
	})
	return func() int {
		select {
		case c := <-done:
			waited = true
			if c != 0 {
				t.Logf("git %s:\n%s", strings.Join(args, " "), out.String())
			}
			return c
		case <-time.After(60 * time.Second):
			t.Fatalf("git %s did not end:\n%s", strings.Join(args, " "), out.String())
			return -1
		}
	}
}

// nextURL waits for the fake browser to have been given n addresses and
// returns the last.
func nextURL(t *testing.T, file string, n int) string {
	t.Helper()
	deadline := time.Now().Add(60 * time.Second)
	for {
		data, _ := os.ReadFile(file)
		if ls := strings.Fields(string(data)); len(ls) >= n {
			return ls[n-1]
		}
		if time.Now().After(deadline) {
			t.Fatalf("the browser was not opened %d times: %q", n, data)
		}
		time.Sleep(50 * time.Millisecond)
	}
}

func get(t *testing.T, page string) string {
	t.Helper()
	resp, err := http.Get(page)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		t.Fatalf("GET %s: %s", page, resp.Status)
	}
	return string(b)
}

// post posts JSON to the page's action as the page's script does (from
// its own origin) and returns the answer.
func post(t *testing.T, page, action, body string) map[string]any {
	t.Helper()
	u, _ := url.Parse(page)
	req, _ := http.NewRequest(http.MethodPost, page+action, strings.NewReader(body))
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Origin", "http://"+u.Host)
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var ans map[string]any
	if resp.StatusCode == http.StatusNoContent {
		return nil
	}
	if err := json.NewDecoder(resp.Body).Decode(&ans); err != nil || resp.StatusCode != 200 {
		t.Fatalf("POST %s: %s %v", action, resp.Status, err)
	}
	return ans
}
