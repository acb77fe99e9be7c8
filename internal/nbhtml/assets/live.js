// The page of a local server (ipynb web): it tells the server it is
// still open (every 2 s), and that it closed, so that the server stops
// with it. Requests go to the page's own origin and path (which carries
// the server's token).
(function () {
  "use strict";
  function send(what) { return fetch(what, { method: "POST", headers: { "Content-Type": "application/json" }, body: "{}" }); }
  send("alive");
  setInterval(function () { send("alive").catch(function () {}); }, 2000);
  window.addEventListener("pagehide", function () { navigator.sendBeacon("bye", new Blob(["{}"], { type: "application/json" })); });
})();
