// Cheat-code capture: key presses, swipes, tap bursts and shakes are posted
// one by one to /cheats/actions, in order; the server matches them against
// every cheat and answers with the progress and any unlocked effect.
(function () {
  "use strict";
  if (!window.Arcade || !window.fetch) return;
  var announcer = document.getElementById("cheat-announcer");
  var progressBar = document.getElementById("cheat-progress");

  var queue = Promise.resolve();
  var codeUntil = 0;  // a code is under way until then (see Touch)
  function send(kind, value) {
    queue = queue.then(function () {
      return Arcade.post("/cheats/actions", "kind=" + encodeURIComponent(kind) + "&value=" + encodeURIComponent(String(value)))
        .then(function (response) { return response.ok ? response.json() : null; })
        .then(apply)
        .catch(function () { /* a lost action only breaks a sequence */ });
    });
  }

  var effects = {
    "theme.crt": function () { document.documentElement.classList.toggle("theme-crt"); },
    "credits": function () { window.location.assign("/credits"); },
    // The revealed digit drops into its cell of the row being played, without a reload.
    "mastermind.reveal": function () { if (window.ArcadeMastermind) window.ArcadeMastermind.refresh(); },
    "namegame.firstLetter": function () { if (/^\/namegame\/[a-z]+$/.test(window.location.pathname)) window.location.reload(); }
  };

  function apply(answer) {
    if (!answer) return;
    if (progressBar) {
      // A subtle hint: a thin bar that grows while a sequence is on track.
      var share = answer.length > 0 ? answer.progress / answer.length : 0;
      progressBar.style.transform = "scaleX(" + share + ")";
      progressBar.setAttribute("data-progress", String(answer.progress));
    }
    var unlocked = answer.unlocked || [];
    document.documentElement.setAttribute("data-cheat-progress", String(answer.progress || 0));
    // A code done or broken: the next tap on a key is a press again.
    if (unlocked.length || !answer.progress) codeUntil = 0;
    if (unlocked.length && announcer) announcer.textContent = announcer.getAttribute("data-unlocked");
    (answer.toasts || []).forEach(toast);
    if (unlocked.length) flash();
    unlocked.forEach(function (effect) {
      document.documentElement.setAttribute("data-last-cheat", effect);
      if (effects[effect]) effects[effect]();
    });
  }

  // "Cheat unlocked: The Konami code", for a few seconds (a status: read out, never taking focus).
  var toastTimer = null;
  function toast(text) {
    var box = document.querySelector("[data-toast]");
    if (!box) {
      box = document.createElement("p");
      box.className = "toast";
      box.setAttribute("role", "status");
      box.setAttribute("data-toast", "");
      document.body.appendChild(box);
    }
    box.textContent = text;
    box.hidden = false;
    clearTimeout(toastTimer);
    toastTimer = setTimeout(function () { box.hidden = true; }, 4000);
  }
  // A short CRT flash over the page (CSS fades it instead when motion is reduced).
  function flash() {
    var root = document.documentElement;
    root.classList.remove("cheat-flash");
    void root.offsetWidth;
    root.classList.add("cheat-flash");
    setTimeout(function () { root.classList.remove("cheat-flash"); }, 600);
  }

  // Keys: not auto-repeat, not lone modifiers, not typing in a field. Arrows are swipes.
  var modifiers = ["Shift", "Control", "Alt", "Meta", "AltGraph", "CapsLock", "Fn", "OS", "Dead", "Unidentified"];
  var arrows = { ArrowUp: "up", ArrowDown: "down", ArrowLeft: "left", ArrowRight: "right" };
  document.addEventListener("keydown", function (event) {
    if (event.repeat || event.ctrlKey || event.metaKey || event.altKey || modifiers.indexOf(event.key) >= 0) return;
    var target = event.target;
    if (target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    if (arrows[event.key]) {
      // On a game page the arrows are the Konami code's, not the page's scrolling.
      if (document.querySelector("[data-cheat-area]")) event.preventDefault();
      send("swipe", arrows[event.key]);
    }
    else if (event.key && event.key.length <= 32) send("key", event.key);
  });

  // Touch: one finger. A swipe is at least 40 px along its dominant axis within 800 ms; a tap at most 350 ms (a
  // press still, not a long press) and 10 px; taps within 300 ms of each other are one burst, posted as tap(n). On a
  // game page only the play area ([data-cheat-area]) reads gestures, and CSS gives it its swipes (touch-action), so
  // they never scroll or go back; elsewhere the page scrolls as usual and a swipe is still seen (a touch that scrolls
  // ends with touchend).
  // A tap is either a code's or a press, never both: on a key, a face or a button it presses, unless a code is under
  // way (a swipe or a code tap in the last two seconds, a cheat's own timeout), when it counts and presses nothing.
  var start = null, taps = 0, burst = null;
  var pressable = "a, button, input, select, textarea, label, summary, [role=button], [data-key], [data-choice]";
  function playArea() { return document.querySelector("[data-cheat-area]"); }
  document.addEventListener("touchstart", function (event) {
    var touch = event.touches.length === 1 ? event.touches[0] : null;
    var target = event.target;
    // On a game page, a touch outside the play area is the page's, not a code's.
    if (touch && playArea() && !(target.closest && target.closest("[data-cheat-area]"))) touch = null;
    start = touch ? { x: touch.clientX, y: touch.clientY, t: event.timeStamp, id: touch.identifier, on: target } : null;
  }, { passive: true });
  function lift(event, cancelled) {
    var s = start, touch = event.changedTouches[0];
    if (!s || !touch || s.id !== touch.identifier) return;
    start = null;
    if (cancelled) return;
    var dx = touch.clientX - s.x, dy = touch.clientY - s.y, dt = event.timeStamp - s.t;
    var ax = Math.abs(dx), ay = Math.abs(dy);
    if (Math.max(ax, ay) >= 40 && dt <= 800) {
      flushTaps();
      codeUntil = event.timeStamp + 2000;
      send("swipe", ax > ay ? (dx > 0 ? "right" : "left") : (dy > 0 ? "down" : "up"));
    } else if (dt <= 350 && Math.sqrt(dx * dx + dy * dy) <= 10) {
      var onPressable = !!(s.on.closest && s.on.closest(pressable));
      if (onPressable && event.timeStamp > codeUntil) return;  // a press, not a code's tap
      // The code's tap: the click the browser would make of it never happens.
      if (onPressable && event.cancelable) event.preventDefault();
      codeUntil = event.timeStamp + 2000;
      taps += 1;
      clearTimeout(burst);
      burst = setTimeout(flushTaps, 300);
    }
  }
  function flushTaps() {
    clearTimeout(burst);
    if (taps > 0) send("tap", taps);
    taps = 0;
  }
  // Not passive: a code's tap on a key cancels its click.
  document.addEventListener("touchend", function (event) { lift(event, false); }, { passive: false });
  document.addEventListener("touchcancel", function (event) { lift(event, true); }, { passive: true });

  // Shake: a change of over 15 m/s² on two axes, at most one shake a second.
  var last = null, lastShake = 0;
  function onMotion(event) {
    var a = event.accelerationIncludingGravity;
    if (!a || a.x === null) return;
    if (last) {
      var moved = [Math.abs(a.x - last.x), Math.abs(a.y - last.y), Math.abs(a.z - last.z)].filter(function (d) { return d > 15; });
      var now = Date.now();
      if (moved.length >= 2 && now - lastShake >= 1000) { lastShake = now; send("shake", ""); }
    }
    last = { x: a.x, y: a.y, z: a.z };
  }
  if (window.DeviceMotionEvent) {
    window.addEventListener("devicemotion", onMotion);
    // iOS and iPadOS deliver no motion until asked, and only from a tap.
    // (Chromium also has requestPermission, but grants without asking.)
    var apple = /iP(hone|ad|od)/.test(navigator.userAgent) || (/Macintosh/.test(navigator.userAgent) && navigator.maxTouchPoints > 1);
    var footer = document.querySelector("footer");
    if (apple && typeof DeviceMotionEvent.requestPermission === "function" && footer && announcer) {
      var button = document.createElement("button");
      button.type = "button";
      button.className = "button-quiet";
      button.setAttribute("data-enable-shake", "");
      button.textContent = announcer.getAttribute("data-enable-shake");
      button.addEventListener("click", function () {
        DeviceMotionEvent.requestPermission().then(function (state) {
          if (state === "granted") button.remove();
        }).catch(function () {});
      });
      footer.appendChild(button);
    }
  }
})();
