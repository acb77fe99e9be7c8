package main

import (
	"fmt"
	"os"
	"os/exec"
	"path/filepath"
)

// git difftool -t ipynb and git mergetool -t ipynb (the settings are in
// gitsettings.go) open their pages with the server program ipynb-web,
// which ipynb web runs from beside ipynb, else from the PATH. Install
// sets them whether or not ipynb-web is there — installing it later
// needs no new install — and notes when it is not; status says where it
// is, or that the tools cannot run without it (the drivers can: it is
// not a problem of the set-up).

// noWebProgram says what is missing without ipynb-web.
const noWebProgram = "the server program ipynb-web is not installed beside ipynb or on the PATH: git difftool -t ipynb and git mergetool -t ipynb fail until it is (go install ./cmd/ipynb-web)"

// webFor is the ipynb-web that the ipynb command cmd (a setting's CMD)
// runs: beside cmd's program (found on the PATH when cmd names no
// folder), else on the PATH.
func webFor(cmd string) (string, bool) {
	if w := commandWord(cmd); w != "" {
		if p, err := exec.LookPath(w); err == nil {
			web := filepath.Join(filepath.Dir(p), "ipynb-web")
			if fi, err := os.Stat(web); err == nil && fi.Mode().IsRegular() && fi.Mode()&0o111 != 0 {
				return web, true
			}
		}
	}
	p, err := exec.LookPath("ipynb-web")
	return p, err == nil
}

// statusTools prints, when the tools are set, where the ipynb-web they
// run is, or that it is missing.
func statusTools(e *env, repo bool, cfg *gitConfigs) {
	v, ok, err := cfg.get(configScope(repo), "mergetool.ipynb.cmd")
	if err != nil || !ok || !settingFor("mergetool.ipynb.cmd").ours(v) {
		if d, ok, _ := cfg.get(configScope(repo), "difftool.ipynb.cmd"); ok && settingFor("difftool.ipynb.cmd").ours(d) {
			v = d
		} else {
			return
		}
	}
	if web, ok := webFor(v); ok {
		fmt.Fprintf(e.stdout, "  git difftool/mergetool -t ipynb open their pages with %s\n", quoteName(web))
		return
	}
	fmt.Fprintf(e.stdout, "  %s\n", noWebProgram)
}
