package browsertest

import (
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/chromedp/chromedp"
)

// A browser keeps no file outside its profile folder: its singleton
// socket (a link from the profile into a folder chromium makes under
// $TMPDIR, which it leaves behind when it is killed, as chromedp ends
// it) is inside the profile folder, which the test's TempDir removes.
func TestTempFilesInProfile(t *testing.T) {
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
	if !strings.HasPrefix(target, dir+string(filepath.Separator)) {
		t.Errorf("the singleton socket is at %s, outside the profile %s", target, dir)
	}
}
