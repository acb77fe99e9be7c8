// A merge page's own script: choices fill a conflict's editor (or are
// the resolution), every change is checked by the server (conflicts
// left, validity), Save asks the server to write the file.
(function () {
  "use strict";
  var sections = Array.prototype.slice.call(document.querySelectorAll("section.nb-conflict"));
  var chosen = sections.map(function () { return ""; });
  var status = document.querySelector(".nb-status"), saved = document.querySelector(".nb-saved");
  var markers = /^(<{7}|={7}|>{7}|\|{7})( |$)/m;
  function resolutions() {
    return sections.map(function (s, i) {
      var ed = s.querySelector("textarea.nb-editor");
      return { choice: chosen[i], text: ed ? ed.value : "" };
    });
  }
  function mark() {
    sections.forEach(function (s, i) {
      var ed = s.querySelector("textarea.nb-editor");
      var done = ed ? !markers.test(ed.value) : chosen[i] !== "";
      s.classList.toggle("nb-resolved", done);
      s.querySelector(".nb-cstate").textContent = done ? "resolved" : "unresolved";
    });
  }
  function post(what) {
    return fetch(what, { method: "POST", headers: { "Content-Type": "application/json" },
      body: JSON.stringify({ resolutions: resolutions() }) }).then(function (r) { return r.json(); });
  }
  var pending = null;
  function check() {
    mark();
    clearTimeout(pending);
    pending = setTimeout(function () {
      post("check").then(function (r) {
        var s = r.resolved + " of " + r.total + " conflicts resolved · notebook " + (r.valid ? "valid" : "invalid");
        if (r.problems && r.problems.length) s += ": " + r.problems.slice(0, 3).join("; ");
        if (r.error) s = r.error;
        status.textContent = s;
        status.classList.toggle("nb-bad", !r.valid || !!r.error);
      }).catch(function (e) { status.textContent = "the server does not answer: " + e; });
    }, 150);
  }
  sections.forEach(function (s, i) {
    s.querySelectorAll("button.nb-choice").forEach(function (b) {
      b.addEventListener("click", function () {
        chosen[i] = b.getAttribute("data-choice");
        s.querySelectorAll("button.nb-choice").forEach(function (o) { o.classList.toggle("nb-on", o === b); });
        var ed = s.querySelector("textarea.nb-editor");
        if (ed) ed.value = JSON.parse(b.getAttribute("data-value"));
        check();
      });
    });
    var ed = s.querySelector("textarea.nb-editor");
    // The text itself (the element's text cannot hold a lone surrogate).
    if (ed) ed.value = JSON.parse(ed.getAttribute("data-value"));
    if (ed) ed.addEventListener("input", function () { chosen[i] = "edit"; check(); });
  });
  document.querySelector("button.nb-save").addEventListener("click", function () {
    post("save").then(function (r) {
      saved.textContent = r.error ? r.error : r.saved;
      if (!r.error) document.body.classList.add("nb-done");
    }).catch(function (e) { saved.textContent = "not saved: " + e; });
  });
  check();
})();
