// The replay viewer's keys: the arrow keys step back and forward, Home and End go to the
// first and last step, and autoplay steps on every 1.5 seconds. Without JavaScript the
// buttons are plain links and do the same.
(function () {
  "use strict";
  function go(id) {
    var link = document.getElementById(id);
    if (link) { window.location.href = link.href; }
  }
  document.addEventListener("keydown", function (event) {
    if (event.altKey || event.ctrlKey || event.metaKey) { return; }
    var keys = { ArrowLeft: "back", ArrowRight: "next", Home: "first", End: "last" };
    if (keys[event.key]) { event.preventDefault(); go(keys[event.key]); }
  });
  var viewer = document.querySelector(".replay");
  if (viewer && viewer.dataset.autoplay === "1" && viewer.dataset.step !== viewer.dataset.last) {
    window.setTimeout(function () { go("play"); }, 1500);
  }
})();
