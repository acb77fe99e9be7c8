package nbhtml

import (
	"strings"
	"testing"
)

// The allow list, tag by tag (the browser tests check what the DOM makes
// of it).
func TestSanitize(t *testing.T) {
	t.Parallel()
	img := func(src string) string { return imageSrc(src, nil) }
	for _, c := range []struct{ in, want string }{
		{`<b>x</b>`, `<b>x</b>`},
		{`<B CLASS="y" onclick="z">x</b>`, `<b>x</b>`},
		{`<div class="alert" style="color:red">x`, `<div>x</div>`},
		{`</div></section></main>x`, `&lt;/section&gt;&lt;/main&gt;x`},
		{`<b><i>x</b>y</i>`, `<b><i>x</i></b>y`},
		{`<script>alert(1)</script>`, `&lt;script&gt;alert(1)&lt;/script&gt;`},
		{`<style>a{}</style>`, `&lt;style&gt;a{}&lt;/style&gt;`},
		{`<svg onload=x>`, `&lt;svg onload=x&gt;`},
		{`<!-- c --><br/>`, `<br>`},
		{`a < b && c > d "q" 'r'`, `a &lt; b &amp;&amp; c &gt; d &#34;q&#34; &#39;r&#39;`},
		{`&nbsp;&#8364;&#x20AC;&amp;&bogus`, `&nbsp;&#8364;&#x20AC;&amp;&amp;bogus`},
		{`<td colspan="2" rowspan=x>`, `<td colspan="2"></td>`},
		{`<ol start="3" type="a">`, `<ol start="3"></ol>`},
		{`<a href="https://x.org/?a=1&amp;b=2" target=_top>`, `<a href="https://x.org/?a=1&amp;b=2" rel="noopener noreferrer"></a>`},
		{`<a href="javascript:alert(1)">`, `<a class="nb-inert" title="link not followed: javascript:alert(1)"></a>`},
		{`<a href="&#106;avascript:alert(1)">`, `<a class="nb-inert" title="link not followed: javascript:alert(1)"></a>`},
		{`<a name="top" id="x">`, `<a></a>`},
		{`<img src="data:image/png;base64,AAAA" width="50%" height="20px" onerror="x">`, `<img src="data:image/png;base64,AAAA" width="50%" height="20">`},
		{`<img src="http://x/y.png" alt="remote">`, `<span class="nb-noimg" title="image not embedded in the notebook: not shown">[image remote: http://x/y.png]</span>`},
		{`<img src="data:text/html,<script>">`, `<span class="nb-noimg" title="image not embedded in the notebook: not shown">[image: data:text/html,&lt;script&gt;]</span>`},
		{`<p>a<p>b`, `<p>a<p>b</p></p>`},
		{`<x-foo>`, `&lt;x-foo&gt;`},
		{`<b`, `&lt;b`},
	} {
		var b strings.Builder
		z := sanitizer{img: img}
		z.write(&b, c.in)
		z.closeAll(&b)
		if got := b.String(); got != c.want {
			t.Errorf("%s\n got %s\nwant %s", c.in, got, c.want)
		}
	}
}

func TestLinkHref(t *testing.T) {
	t.Parallel()
	for in, want := range map[string]string{
		"https://x.org/a b": "https://x.org/a b", "http://x": "http://x", "mailto:a@b.c": "mailto:a@b.c", "#sec": "#sec",
		"javascript:x": "", "JAVASCRIPT:x": "", " javascript:x": "", "java\tscript:x": "", "java\nscript:x": "",
		"\x00javascript:x": "", "data:text/html,x": "", "vbscript:x": "", "file:///etc": "", "other.ipynb": "",
		"//host/x": "", "https:/x": "", "http:": "", "": "",
	} {
		got, ok := linkHref(in)
		if ok != (want != "") || got != want {
			t.Errorf("linkHref(%q) = %q, %v; want %q", in, got, ok, want)
		}
	}
}
