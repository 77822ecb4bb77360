// The home page: the countdown to the next daily code ticks (without this script it shows the time at load), and a
// newcomer's "Meet your colleagues" starts a lesson at once.
(function () {
  "use strict";
  // One tap from home to the first person met (a review: the link's page asked for Start first, a page only a form
  // may pass, since a visit alone writes nothing). Without a script, or if the post fails, the link's page.
  var learn = document.querySelector("a[data-learn-start]");
  if (learn && window.Arcade) learn.addEventListener("click", function (event) {
    if (event.ctrlKey || event.metaKey || event.shiftKey || event.button) return;
    event.preventDefault();
    window.Arcade.post("/namegame/next", "mode=learn&resume=1").then(function (response) {
      window.location.assign(response.ok ? response.url : learn.href);
    }).catch(function () { window.location.assign(learn.href); });
  });
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
