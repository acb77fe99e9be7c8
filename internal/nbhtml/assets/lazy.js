// Cells after the first few hundred sit in <template>s inside
// placeholders (div.nb-lazy); they are rendered as they come near the
// view, when their anchor is visited, or all at once on request.
(function () {
  "use strict";
  var observer = null;
  function show(ph) {
    if (observer) observer.unobserve(ph);
    var t = ph.querySelector("template");
    if (t && ph.parentNode) ph.replaceWith(t.content);
  }
  function toHash() {
    var id;
    try { id = decodeURIComponent(location.hash.slice(1)); } catch (e) { return; } // a malformed %-escape
    var el = id && document.getElementById(id);
    if (el && el.classList.contains("nb-lazy")) {
      show(el);
      el = document.getElementById(id);
      if (el) el.scrollIntoView();
    }
  }
  var phs = document.querySelectorAll("div.nb-lazy");
  if ("IntersectionObserver" in window) {
    observer = new IntersectionObserver(function (entries) {
      entries.forEach(function (e) { if (e.isIntersecting) show(e.target); });
    }, { rootMargin: "200% 0px" });
    phs.forEach(function (ph) { observer.observe(ph); });
  } else {
    phs.forEach(show);
  }
  var all = document.querySelector("button.nb-all");
  if (all) all.addEventListener("click", function () {
    document.querySelectorAll("div.nb-lazy").forEach(show);
    all.disabled = true;
  });
  window.addEventListener("hashchange", toHash);
  toHash();
})();
