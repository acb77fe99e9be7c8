package nbweb

import (
	"net/http/httptest"
	"strings"
	"testing"

	"github.com/nbdialog/ipynb/internal/nbhtml"
)

// Every answer of the server — the page, an action, a refusal — carries
// the served pages' policy (no framing, the pages' own scripts only) and
// the headers that keep it from being cached, sniffed or framed; and the
// server refuses requests that do not name it as their host (DNS
// rebinding), lack its token, or post from elsewhere.
func TestServerHeaders(t *testing.T) {
	t.Parallel()
	s := &webServer{app: pageApp{[]byte("<!DOCTYPE html>")}, addr: "127.0.0.1:4242", token: strings.Repeat("ab", 16)}
	base := "/" + s.token + "/"
	s.base = base
	for _, c := range []struct {
		what, method, host, path, ctype, origin string
		want                                    int
	}{
		{"the page", "GET", s.addr, base, "", "", 200},
		{"an action", "POST", s.addr, base + "alive", "application/json", "http://" + s.addr, 204},
		{"another host (DNS rebinding)", "GET", "evil.example:4242", base, "", "", 404},
		{"localhost", "GET", "localhost:4242", base, "", "", 404},
		{"no port", "GET", "127.0.0.1", base, "", "", 404},
		{"no token", "GET", s.addr, "/", "", "", 404},
		{"a wrong token", "GET", s.addr, "/" + strings.Repeat("ab", 15) + "ac/", "", "", 404},
		{"the token's prefix", "GET", s.addr, "/" + s.token[:16] + "/", "", "", 404},
		{"the token in upper case", "GET", s.addr, "/" + strings.ToUpper(s.token) + "/", "", "", 404},
		{"a post from another origin", "POST", s.addr, base + "alive", "application/json", "http://127.0.0.1:4243", 403},
		{"a post from a sandboxed page", "POST", s.addr, base + "alive", "application/json", "null", 403},
		{"a form's post (text/plain)", "POST", s.addr, base + "alive", "text/plain", "", 403},
		{"a form's post (urlencoded)", "POST", s.addr, base + "alive", "application/x-www-form-urlencoded", "", 403},
		{"a get of an action", "GET", s.addr, base + "alive", "", "", 403},
		{"a preflight", "OPTIONS", s.addr, base + "alive", "", "http://evil.example", 403},
		{"a post to the page", "POST", s.addr, base, "application/json", "", 405},
		{"the address without its last slash", "GET", s.addr, "/" + s.token, "", "", 301},
		{"a post there", "POST", s.addr, "/" + s.token, "application/json", "", 404},
	} {
		req := httptest.NewRequest(c.method, "http://"+s.addr+c.path, strings.NewReader("{}"))
		req.Host = c.host
		if c.ctype != "" {
			req.Header.Set("Content-Type", c.ctype)
		}
		if c.origin != "" {
			req.Header.Set("Origin", c.origin)
		}
		w := httptest.NewRecorder()
		s.ServeHTTP(w, req)
		if w.Code != c.want {
			t.Errorf("%s: status %d, want %d", c.what, w.Code, c.want)
		}
		h := w.Result().Header
		for k, v := range map[string]string{
			"Content-Security-Policy": nbhtml.ServedCSP(), "X-Frame-Options": "DENY", "X-Content-Type-Options": "nosniff",
			"Cache-Control": "no-store", "Referrer-Policy": "no-referrer",
		} {
			if got := h.Get(k); got != v {
				t.Errorf("%s: %s %q, want %q", c.what, k, got, v)
			}
		}
		if c.want == 301 && h.Get("Location") != base {
			t.Errorf("%s: sent to %q, want %q", c.what, h.Get("Location"), base)
		}
		if c.want == 200 && h.Get("Content-Type") != "text/html; charset=utf-8" {
			t.Errorf("%s: Content-Type %q", c.what, h.Get("Content-Type"))
		}
		if c.want != 200 && strings.Contains(w.Body.String(), "DOCTYPE") {
			t.Errorf("%s: the page was served", c.what)
		}
	}
	if !strings.Contains(nbhtml.ServedCSP(), "frame-ancestors 'none'") {
		t.Errorf("ServedCSP %q forbids no framing", nbhtml.ServedCSP())
	}
}
