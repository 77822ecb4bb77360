// The Name Game, enhanced: keys 1–6 pick, 0 says "I don't know", Enter goes on; hint mode fades
// faces out as the server hides them; timed mode counts down. Without this
// script every choice is still a plain form button.
(function () {
  "use strict";
  var game = document.getElementById("namegame");
  if (!game) return;
  var canAsk = window.Arcade && window.fetch;

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA")) return;
    if (/^[0-6]$/.test(event.key)) {
      var choice = game.querySelector('button[data-key="' + event.key + '"]:not([disabled])');
      if (choice) { event.preventDefault(); choice.click(); }
    } else if (event.key === "Enter" && !(target && target.tagName === "BUTTON")) {
      var next = game.querySelector("button[data-next]");
      if (next) { event.preventDefault(); next.click(); }
    }
  });

  // The keys work only with this script: only then are they explained.
  var keys = game.querySelector("[data-keys]");
  if (keys) keys.hidden = false;

  // Move focus to the round's outcome or question, for screen readers and keys; the page never scrolls itself.
  var next = game.querySelector("button[data-next]");
  var focusTarget = next || game.querySelector(".question");
  if (focusTarget) focusTarget.focus({ preventScroll: true });

  // Hint mode: ask the server which faces are hidden now (it decides; the
  // page never knows the answer), and fade them out.
  var hintMs = parseInt(game.getAttribute("data-hint-ms"), 10);
  if (hintMs && canAsk && !game.hasAttribute("data-answered")) {
    var poll = window.setInterval(function () {
      window.Arcade.get(window.location.pathname).then(function (r) { return r.text(); }).then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("namegame");
        if (!fresh || fresh.getAttribute("data-round") !== game.getAttribute("data-round")) { window.clearInterval(poll); return; }
        Array.prototype.forEach.call(fresh.querySelectorAll("button[data-hidden]"), function (hidden) {
          var mine = game.querySelector('button[data-choice="' + hidden.getAttribute("data-choice") + '"]');
          if (mine && !mine.hasAttribute("data-hidden")) {
            mine.setAttribute("data-hidden", "true");
            mine.disabled = true;
            mine.classList.add("is-hidden");
          }
        });
      });
    }, hintMs);
  }

  // Timed mode: count down, then show the summary.
  // Timed mode: count down (the text and the bar), change in the last five seconds, then show the summary.
  var timer = game.querySelector("[data-seconds-left]");
  if (timer && !game.hasAttribute("data-ended")) {
    var text = timer.querySelector(".timer-text"), bar = timer.querySelector("progress");
    var left = parseInt(timer.getAttribute("data-seconds-left"), 10);
    var template = text.textContent.replace(String(left), "{n}");
    var tick = window.setInterval(function () {
      left -= 1;
      if (left <= 0) { window.clearInterval(tick); window.location.reload(); return; }
      text.textContent = template.replace("{n}", String(left));
      timer.setAttribute("data-seconds-left", String(left));
      if (bar) bar.value = left;
      if (left <= 5) { timer.classList.add("is-ending"); timer.setAttribute("data-ending", "true"); }
    }, 1000);
  }
})();
