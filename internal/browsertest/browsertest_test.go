package browsertest

import (
	"os"
	"path/filepath"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A browser leaves no file behind: its singleton socket (a link from the
// profile into a folder chromium makes under $TMPDIR, which it leaves
// behind when it is killed, as chromedp ends it) is in a folder the
// browser's cancel removes. The test's own TempDir is long, as a long
// test name makes it, and the browser still starts (a socket's path has
// at most 107 bytes).
func TestTempFilesInProfileOfATestWithAVeryLongNameThatMakesItsTempDirLong(t *testing.T) {
	if testing.Short() {
		t.Skip("browser tests do not run with -short")
	}
	exe := ExecPath()
	if exe == "" {
		t.Skip("no chromium to run (install Debian's chromium, or set CHROMIUM)")
	}
	dir := filepath.Join(t.TempDir(), "profile")
	ctx, cancel := newBrowser(exe, dir)
	defer cancel()
	if err := chromedp.Do(ctx); err != nil {
		t.Skipf("chromium does not start: %v", err)
	}
	link := filepath.Join(dir, "SingletonSocket")
	var target string
	for deadline := time.Now().Add(10 * time.Second); ; time.Sleep(50 * time.Millisecond) {
		var err error
		if target, err = os.Readlink(link); err == nil {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("chromium made no %s: %v", link, err)
		}
	}
	cancel()
	if _, err := os.Lstat(filepath.Dir(target)); !os.IsNotExist(err) {
		t.Errorf("the singleton socket's folder %s is left after the browser ended (%v)", filepath.Dir(target), err)
	}
}
