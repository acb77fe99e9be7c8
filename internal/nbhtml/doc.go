// Package nbhtml renders notebooks and dialogs (read with package
// convert) as HTML pages for people to read and review: one
// self-contained file each — styles, scripts and images inside it — that
// opens in any browser and makes no request to the network, ever.
//
// # Contract
//
//   - Self-contained and offline: images are data URLs; a page's
//     Content-Security-Policy (Policy.CSP, in a meta tag before anything
//     else) allows no source but data URLs for images and fonts, inline
//     styles, and the page's own scripts by hash. An image the notebook
//     only points at (http://…, a file beside it) is named, not loaded.
//   - Untrusted content stays inert. A notebook may come from anyone, so
//     nothing in it runs in the page or can read it: HTML outputs are
//     shown only inside sandboxed frames (sandbox="" — no scripts, an
//     opaque origin — with the frame's own policy loading nothing);
//     SVG only as images; JavaScript outputs never; Markdown's raw HTML
//     through an allow list that writes each kept tag anew, without
//     attributes that could run or load anything (sanitize.go); links
//     only to http, https, mailto and #fragments (javascript:, data:,
//     vbscript: and the rest are shown inert, see urls.go); names (the
//     title, file names, ids, MIME types) as text.
//   - Faithful to what Jupyter shows: notes and prompts as Markdown with
//     the GitHub extensions Jupyter supports (tables, strikethrough, task
//     lists, bare links; math kept as TeX source), code highlighted
//     (chroma, CSS classes), outputs as Jupyter shows them (output.go),
//     streams with terminal codes removed as `ipynb md` removes them.
//   - Large notebooks open at once: after the first Options.Lazy cells,
//     cells are rendered as they scroll into view (lazy.go).
//
// # Trust
//
// Jupyter shows a notebook's active content (scripts in HTML outputs,
// JavaScript outputs, widgets) only when the notebook is trusted: when the
// user ran it, or signed it, on their own machine; every notebook from
// elsewhere is untrusted, and for it Jupyter sanitises HTML and runs
// nothing. A page made here has no such signature to check and is meant
// for notebooks from anyone (a pull request, a CI run), so it shows every
// notebook as Jupyter shows an untrusted one — and goes further where a
// page must: HTML outputs sit in sandboxed frames rather than in the page,
// so that even their styles stay theirs. Markdown is sanitised as Jupyter
// always sanitises it. Nothing from the notebook runs, whatever it says
// about itself.
package nbhtml
