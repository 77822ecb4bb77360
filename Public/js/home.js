// The home page: the countdown to the next daily code ticks (without this script it shows the time at load).
(function () {
  "use strict";
  var clock = document.querySelector("[data-countdown]");
  if (!clock) return;
  var end = Date.now() + parseInt(clock.getAttribute("data-countdown"), 10) * 1000;
  function two(n) { return (n < 10 ? "0" : "") + n; }
  function show() {
    var left = Math.max(0, Math.round((end - Date.now()) / 1000));
    clock.textContent = two(Math.floor(left / 3600)) + ":" + two(Math.floor(left / 60) % 60) + ":" + two(left % 60);
    clock.setAttribute("data-countdown", String(left));
    if (left === 0) { window.clearInterval(timer); window.location.reload(); }
  }
  var timer = window.setInterval(show, 1000);
})();
