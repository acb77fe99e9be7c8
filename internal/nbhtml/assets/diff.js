// A diff page's own script: jumps between changes (n, p and the buttons),
// the image swipe and difference view, and showing unchanged cells. It
// reads nothing from the notebook's content.
(function () {
  "use strict";
  var changes = Array.prototype.slice.call(document.querySelectorAll("section.nb-dcell"));
  var at = -1;
  function go(i) {
    if (!changes.length) return;
    at = (i + changes.length) % changes.length;
    changes.forEach(function (c) { c.classList.remove("nb-current"); });
    changes[at].classList.add("nb-current");
    changes[at].scrollIntoView({ block: "start" });
  }
  function next() { go(at + 1); }
  function prev() { go(at < 0 ? changes.length - 1 : at - 1); }
  document.addEventListener("keydown", function (e) {
    if (e.ctrlKey || e.metaKey || e.altKey) return;
    var t = e.target || {};
    if (t.isContentEditable || t.tagName === "TEXTAREA" || t.tagName === "SELECT" ||
      (t.tagName === "INPUT" && /^(text|search|number|email|url|password)$/.test(t.type))) return;
    if (e.key === "n" || e.key === "j") { next(); e.preventDefault(); }
    if (e.key === "p" || e.key === "k") { prev(); e.preventDefault(); }
  });
  var b = document.querySelector("button.nb-next"); if (b) b.addEventListener("click", next);
  b = document.querySelector("button.nb-prev"); if (b) b.addEventListener("click", prev);
  b = document.querySelector("button.nb-expand");
  if (b) b.addEventListener("click", function () {
    var open = b.textContent.indexOf("show") === 0;
    document.querySelectorAll("details.nb-same").forEach(function (d) { d.open = open; });
    b.textContent = open ? "hide unchanged cells" : "show unchanged cells";
  });
  document.querySelectorAll(".nb-swipe").forEach(function (s) {
    var range = s.querySelector(".nb-swipe-range"), top = s.querySelector(".nb-swipe-top"),
      stack = s.querySelector(".nb-swipe-stack"), diff = s.querySelector(".nb-swipe-diff"),
      a = s.querySelector(".nb-swipe-a"), bimg = s.querySelector(".nb-swipe-b");
    function size() { bimg.style.width = a.getBoundingClientRect().width + "px"; }
    range.addEventListener("input", function () { top.style.width = range.value + "%"; });
    diff.addEventListener("change", function () { stack.classList.toggle("nb-difference", diff.checked); });
    if (a.complete) size(); else a.addEventListener("load", size);
    window.addEventListener("resize", size);
  });
  document.querySelectorAll(".nb-changes a").forEach(function (l, i) {
    l.addEventListener("click", function () { at = i; changes.forEach(function (c) { c.classList.remove("nb-current"); });
      if (changes[i]) changes[i].classList.add("nb-current"); });
  });
})();
