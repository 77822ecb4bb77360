// Cheat-code capture: key presses, swipes, tap bursts and shakes that can start
// a code or follow one are posted one by one to /cheats/actions, in order; the
// server matches them against every cheat and answers with the progress and any
// unlocked effect.
(function () {
  "use strict";
  if (!window.Arcade || !window.fetch) return;
  var announcer = document.getElementById("cheat-announcer");
  var progressBar = document.getElementById("cheat-progress");

  var queue = Promise.resolve();
  var codeUntil = 0;  // a code is under way until then (see Touch)
  // The Mastermind board on this page, if any: a reveal is for its game, and never for a daily (one code for all).
  // A Name Game round likewise: a code entered on another page changes no game (a review's Konami on the home page
  // spent a hint on the game left open in another tab).
  function boardFields() {
    var board = document.querySelector("#board[data-game]");
    var round = document.querySelector("[data-round]");
    if (round && !board) {
      return "&round=" + encodeURIComponent(round.getAttribute("data-round")) +
        (document.querySelector("[data-intro]") ? "&intro=1" : "");
    }
    if (!board) return "";
    return "&game=" + encodeURIComponent(board.getAttribute("data-game")) + (board.hasAttribute("data-daily") ? "&daily=1" : "");
  }
  // Actions sent and not yet answered: counted as steps until their answers say otherwise, so a code's taps that
  // follow its swipes at once count though the swipes' answers are still on their way (a busy machine).
  var inflight = 0;
  // Only what can start a code, or follows a step of one, leaves the browser: a review saw every digit of a guess
  // posted ("no trackers", says the footer). The page lists the codes' first actions; a code's longest pause later
  // (kept across a page load in this tab, so a code may go on over a navigation), anything goes until it answers 0.
  var starts = ((progressBar && progressBar.getAttribute("data-cheat-starts")) || "").split(" ").filter(Boolean);
  var pause = Number(progressBar && progressBar.getAttribute("data-cheat-pause")) || 0;
  var followsUntil = 0;
  try { followsUntil = Number(window.sessionStorage.getItem("cheats.until")) || 0; } catch (e) { /* private mode */ }
  function follows(answer) {
    followsUntil = answer && answer.progress ? Date.now() + pause * 1000 : 0;
    try { window.sessionStorage.setItem("cheats.until", String(followsUntil)); } catch (e) { /* private mode */ }
  }
  function wanted(kind, value) {
    if (inflight > 0 || Date.now() <= followsUntil) return true;
    var action = kind + (value === "" ? "" : ":" + value);
    return starts.indexOf(action) >= 0 || starts.indexOf(action.toLowerCase()) >= 0;
  }
  function post(kind, value) {
    return Arcade.post("/cheats/actions", "kind=" + encodeURIComponent(kind) + "&value=" + encodeURIComponent(String(value))
      + boardFields())
      .then(function (response) { return response.ok ? response.json() : null; })
      .catch(function () { return null; /* a lost action only breaks a sequence */ })
      .then(function (answer) { inflight -= 1; if (answer) follows(answer); apply(answer); })
      .catch(function () {});
  }
  function send(kind, value) {
    if (!wanted(kind, String(value))) return;
    inflight += 1;
    queue = queue.then(function () { return post(kind, value); });
  }
  // The keys a code two steps in takes next (the server says, for a while): in a text field, those are the code's,
  // every other key the field's (a review typed the Konami code in a typed round: its name field read "ba", and
  // nothing unlocked). A key typed there while a step is still unanswered waits for the answers before it, then is
  // sent, or typed where the caret is.
  var codeKeys = [], codeKeysUntil = 0, heldKeys = 0;
  function codeKey(key) {
    return Date.now() <= codeKeysUntil && codeKeys.some(function (k) { return k.toLowerCase() === key.toLowerCase(); });
  }
  function fieldKey(event) {
    var field = event.target, key = event.key;
    var steps = (Number(document.documentElement.getAttribute("data-cheat-progress")) || 0) + inflight;
    if (key === "Enter" && heldKeys > 0) {
      event.preventDefault();
      queue = queue.then(function () { if (field.isConnected && field.form) field.form.requestSubmit(); });
      return;
    }
    if (key.length !== 1 || (steps < 2 && heldKeys === 0)) return;
    if (inflight === 0 && heldKeys === 0) {
      if (codeKey(key)) { event.preventDefault(); send("key", key); }
      return;
    }
    event.preventDefault();
    heldKeys += 1;
    inflight += 1;
    queue = queue.then(function () {
      heldKeys -= 1;
      if (codeKey(key)) return post("key", key);
      inflight -= 1;
      if (!field.isConnected) return;
      field.setRangeText(key, field.selectionStart, field.selectionEnd, "end");
      field.dispatchEvent(new Event("input", { bubbles: true }));
    });
  }

  var effects = {
    "theme.crt": function () { document.documentElement.classList.toggle("theme-crt"); },
    // The credits roll over the page, which stays (a review typed "credits" in a game and was taken out of it).
    "credits": function () {
      if (!window.Arcade.dialog) { window.location.assign("/credits"); return; }
      window.Arcade.get("/credits").then(function (r) { return r.text(); }).then(function (html) {
        var page = new DOMParser().parseFromString(html, "text/html");
        var title = page.querySelector("main h1"), credits = page.querySelector("[data-credits]");
        if (!title || !credits) { window.location.assign("/credits"); return; }
        var roll = document.createElement("div");
        roll.className = "credits-roll";
        roll.append(document.importNode(title, true), document.importNode(credits, true));
        var shown = window.Arcade.dialog(roll, announcer && announcer.getAttribute("data-close-label"));
        shown.classList.add("credits-dialog");
        roll.addEventListener("animationend", function () { shown.classList.add("is-rolled"); });
      }).catch(function () { window.location.assign("/credits"); });
    },
    // The revealed digit flies into its cell of the row being played, without a reload, marked as a hint. Its place
    // and digit are in the unlock's own words: the mark beside the board, said as well, repeated them (a blind review
    // heard "Konami code: the digit in position 1 is 5" after the same sentence).
    "mastermind.reveal": function () {
      // Over, a game has nothing to reveal, and its results stay open with their focus (a keyboard review's code
      // closed them and left the focus on the page's body).
      if (!window.ArcadeMastermind || document.querySelector("#board[data-outcome]")) return;
      return window.ArcadeMastermind.refresh().then(function () {
        var cell = document.querySelector("[data-current-row] .cell.is-revealed");
        if (cell) cell.classList.add("is-flying");
      });
    },
    // A fresh copy of the round shows the letter (or loses half its wrong faces); the toast goes with it (a review:
    // the reload took it away unseen).
    "namegame.firstLetter": function (answer) {
      if (!/^\/namegame\/[a-z]+$/.test(window.location.pathname)) return;
      try { window.sessionStorage.setItem("cheats.toast", JSON.stringify(answer)); } catch (e) { /* private mode */ }
      window.location.reload();
    }
  };

  // Every open page of this browser hears of an unlock: its cabinet counts it, and the CRT follows.
  var channel = window.BroadcastChannel ? new BroadcastChannel("arcade-cheats") : null;
  function tell(news) {
    if (channel) channel.postMessage(news);
  }
  function heard(news) {
    if (!news) return;
    if (typeof news.crt === "boolean") document.documentElement.classList.toggle("theme-crt", news.crt);
    refreshCabinet();
  }
  if (channel) channel.onmessage = function (event) { heard(event.data); };
  // The home page's cabinet, the cheats page and the theme chooser (Retro joins it, chosen while on: a review saw
  // "System" under the CRT), taken from a fresh copy of this page.
  function refreshCabinet() {
    var parts = document.querySelectorAll("[data-cabinet], [data-cheats-found]");
    var themes = document.querySelector("[data-theme-select]");
    if (!parts.length && !themes) return;
    fetch(window.location.href, { credentials: "same-origin", cache: "no-store" })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        var fresh = new DOMParser().parseFromString(html, "text/html");
        var freshThemes = fresh.querySelector("[data-theme-select]");
        if (themes && freshThemes) {
          themes.replaceChildren.apply(themes, Array.prototype.map.call(freshThemes.options, function (option) {
            return document.importNode(option, true);
          }));
          themes.value = freshThemes.value;
        }
        Array.prototype.forEach.call(parts, function (part) {
          var name = part.hasAttribute("data-cabinet") ? "[data-cabinet]" : "[data-cheats-found]";
          var other = fresh.querySelector(name);
          if (other) part.replaceWith(document.importNode(other, true));
        });
      }).catch(function () {});
  }

  // A code in progress: one pip per correct step, from the second (a review's ordinary scroll, an upward swipe, lit a
  // stray pip); a wrong step shakes the trail and empties it.
  var shownProgress = 0, trailTimer = null;
  function trail(progress, unlocked) {
    if (!progressBar) return;
    progressBar.setAttribute("data-progress", String(progress));
    if (unlocked || progress < 2) progress = 0;
    var reset = !unlocked && shownProgress > 0 && progress <= shownProgress && progress < 2;
    shownProgress = progress;
    function draw() {
      progressBar.classList.remove("is-reset");
      progressBar.replaceChildren.apply(progressBar, Array.apply(null, Array(Math.min(progress, 12))).map(function () {
        var pip = document.createElement("span");
        pip.className = "pip";
        return pip;
      }));
    }
    if (reset) {
      progressBar.classList.remove("is-reset");
      void progressBar.offsetWidth;
      progressBar.classList.add("is-reset");
      setTimeout(draw, 450);
    } else {
      draw();
    }
  }

  function apply(answer) {
    if (!answer) return;
    var unlocked = answer.unlocked || [];
    document.documentElement.setAttribute("data-cheat-progress", String(answer.progress || 0));
    codeKeys = answer.keys || [];
    codeKeysUntil = Date.now() + pause * 1000;
    // A code done or broken: the next tap on a key is a press again.
    if (unlocked.length || !answer.progress) codeUntil = 0;
    trail(answer.progress || 0, unlocked.length > 0);
    // A code left off goes quietly when its time is up (a review's dots, lit by ordinary swipes, stayed on).
    clearTimeout(trailTimer);
    if (answer.progress) trailTimer = setTimeout(function () {
      if (inflight > 0) return;
      document.documentElement.setAttribute("data-cheat-progress", "0");
      shownProgress = 0;
      if (progressBar) progressBar.replaceChildren();
    }, pause * 1000 + 100);
    if (!unlocked.length) return;
    flash();
    var shown = [];
    unlocked.forEach(function (effect) {
      document.documentElement.setAttribute("data-last-cheat", effect);
      if (effects[effect]) shown.push(effects[effect](answer));
    });
    // Said once, with what the effects showed (a reveal's place): the unlock and a reveal said apart came close
    // together and cut each other off (a blind review).
    Promise.all(shown).then(function (said) { show(answer, said); }, function () { show(answer, []); });
    var news = { found: answer.found, total: answer.total };
    if (unlocked.indexOf("theme.crt") >= 0) news.crt = document.documentElement.classList.contains("theme-crt");
    tell(news);
    refreshCabinet();
  }

  function show(answer, said) {
    // Said in full through the region the page has had since its load (issue 46: the toast, inserted with its text,
    // was often not read): each cheat's title and what it did; emptied first, so the same unlock is said again.
    if (announcer) {
      // The title a sentence of its own ("The Konami code One digit…" ran together, a blind review).
      var pieces = [];
      (answer.toasts || []).forEach(function (title, i) { pieces.push(title, (answer.did || [])[i] || ""); });
      var words = window.Arcade.sentences(pieces.concat(said || []).filter(Boolean))
        || announcer.getAttribute("data-unlocked");
      announcer.textContent = "";
      setTimeout(function () { announcer.textContent = words; }, 50);
    }
    (answer.toasts || []).forEach(function (title, i) { toast(title, (answer.did || [])[i], answer.first); });
  }

  // "Cheat unlocked: The Konami code", and what it did, for a few seconds (never taking focus; said by the announcer);
  // a first discovery stays a little longer than a cheat used again.
  var toastTimer = null;
  function toast(text, did, first) {
    var box = document.querySelector("[data-toast]");
    if (!box) {
      box = document.createElement("p");
      box.className = "toast";
      // Shown, not spoken: the footer's live region (present from load) says it, once.
      box.setAttribute("aria-hidden", "true");
      box.setAttribute("data-toast", "");
      document.body.appendChild(box);
    }
    var title = document.createElement("strong");
    title.textContent = text;
    box.replaceChildren(title);
    if (did) {
      var line = document.createElement("span");
      line.className = "toast-did";
      line.textContent = did;
      box.appendChild(line);
    }
    box.classList.toggle("is-first", !!first);
    box.classList.remove("is-low");
    box.hidden = false;
    // Over Mastermind's header, unless the page is scrolled and it would lie over the rows just played (a review):
    // then at the window's foot, wherever it covers less of the game.
    var game = document.querySelector(".mastermind-board");
    if (game) {
      var area = game.getBoundingClientRect();
      var over = function () {
        var at = box.getBoundingClientRect();
        return Math.max(0, Math.min(at.bottom, area.bottom) - Math.max(at.top, area.top));
      };
      var high = over();
      box.classList.add("is-low");
      if (over() >= high) box.classList.remove("is-low");
    }
    // Never over the control that has the focus (WCAG 2.4.11; a low-vision review at 400 % typed "retro" on Today's
    // code, and the toast lay over it for 10 s): at the window's other edge then.
    var focused = document.activeElement;
    box.classList.remove("is-high");
    var hides = function () {
      if (!focused || focused === document.body || !focused.getBoundingClientRect) return false;
      var at = box.getBoundingClientRect(), it = focused.getBoundingClientRect();
      return at.left < it.right && it.left < at.right && at.top < it.bottom && it.top < at.bottom;
    };
    if (hides()) {
      if (game) box.classList.toggle("is-low");
      else box.classList.add("is-high");
    }
    clearTimeout(toastTimer);
    // Long enough to read twice (taps go through it to the menu beneath, and Escape takes it away); twice as long
    // with large text or in a short window (a page zoomed to 200 % or 400 %), where two lines take longer to find and
    // read (two low-vision reviews lost them, in 3 s and then in 1.7 s at 200 %).
    var slow = window.Arcade.slowReading() ? 2 : 1;
    toastTimer = setTimeout(function () { box.hidden = true; }, (first ? 6000 : 4000) * slow);
    // Escape takes it away at once (a review: it sat over Hint and Game and Escape did not help).
    var dismiss = function (event) {
      if (event.key !== "Escape" || box.hidden) return;
      box.hidden = true;
      clearTimeout(toastTimer);
      document.removeEventListener("keydown", dismiss, true);
    };
    document.addEventListener("keydown", dismiss, true);
  }
  // An unlock whose effect reloaded the page: its toast, on the page that came back.
  try {
    var carried = JSON.parse(window.sessionStorage.getItem("cheats.toast") || "null");
    window.sessionStorage.removeItem("cheats.toast");
    if (carried) show(carried);
  } catch (e) { /* private mode, or nothing carried */ }

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
    // Single-key shortcuts turned off (WCAG 2.1.4, the setting beside Theme): no key is a cheat's.
    if (document.documentElement.getAttribute("data-shortcuts") === "off") return;
    // In a one-line text field the arrows only move the caret: they are a code's too (see fieldKey for the rest).
    var line = target && target.tagName === "INPUT" && /^(text|search)$/.test(target.type);
    if (line && !arrows[event.key]) { fieldKey(event); return; }
    if (!line && target && (target.isContentEditable || /^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName))) return;
    // Nor in How to play, whose arrows read it (a keyboard review's Konami code there revealed a digit behind the
    // backdrop, and the game counted a hint unseen). A finished game's results are no reading: codes work there.
    if (document.querySelector("dialog[open]:modal:not([data-results-dialog])")) return;
    if (arrows[event.key]) {
      // The arrows are the Konami code's, not the page's scrolling, while the play area has focus (issue 46), and
      // anywhere once a code is two steps in (a keyboard review: its Down Down scrolled the header off screen).
      var underway = parseInt(document.documentElement.getAttribute("data-cheat-progress") || "0", 10) >= 2;
      if (!line && (underway || (target && target.closest && target.closest("[data-cheat-area]")))) {
        event.preventDefault();
      }
      send("swipe", arrows[event.key]);
    }
    else if (event.key && event.key.length <= 32) send("key", event.key);
  });

  // Touch: one finger. A swipe is at least 40 px along its dominant axis within 2 s (at 800 ms a review's ordinary
  // drags, slower than flicks, were not swipes, and nothing said why); a tap at most 350 ms (a
  // press still, not a long press) and 10 px; taps within 300 ms of each other are one burst, posted as tap(n). On a
  // game page only the play area ([data-cheat-area]) reads gestures, and CSS gives it its swipes (touch-action), so
  // they never scroll or go back; elsewhere the page scrolls as usual and a swipe is still seen (a touch that scrolls
  // ends with touchend).
  // A tap is either a code's or a press, never both. On a game page a key or a button always presses (issue 40; a
  // review's swipes on the board followed by two quick taps of a digit switched the retro screen on and typed
  // nothing): a code's taps go on the play area's empty parts, or anywhere else not pressable once it is under way.
  // A face is the exception: two quick taps on faces mean nothing to the game, and a Name Game board is all faces (a
  // review followed the clue, tapped the board twice, and answered the round wrong three times out of three). Once a
  // code is under way, a face's tap waits for the burst: two or more are the code's, a lone one presses, 300 ms late.
  // Off a game page a link or a button presses unless a code is under way (two steps in, the last within two
  // seconds: the codes' own timeout) and a second tap follows at once: a code's taps come two or more in a burst, and
  // a lone tap there presses after all, 300 ms late (a review's Konami taps on the home page opened the daily).
  var start = null, taps = 0, burst = null, held = null, heldDeep = false;
  var pressable = "a, button, input, select, textarea, label, summary, [role=button], [data-key], [data-choice]";
  function playArea() { return document.querySelector("[data-cheat-area]"); }
  // Two steps into a code, its taps may land anywhere on the page (reviews tapped the question, above the faces, and
  // nothing counted).
  function codeSteps(time) {
    return time <= codeUntil ? (Number(document.documentElement.getAttribute("data-cheat-progress")) || 0) + inflight : 0;
  }
  function codeUnderWay(time) { return codeSteps(time) >= 2; }
  document.addEventListener("touchstart", function (event) {
    var touch = event.touches.length === 1 ? event.touches[0] : null;
    var target = event.target;
    // A modal dialog's touches are its own, as its keys are (a review's swipes over the credits switched the retro
    // screen behind them); a finished game's results are no reading, as for keys.
    if (document.querySelector("dialog[open]:modal:not([data-results-dialog])")) touch = null;
    // On a game page, a touch outside the play area is the page's, not a code's, unless a code is under way.
    if (touch && playArea() && !(target.closest && target.closest("[data-cheat-area]")) &&
        !codeUnderWay(event.timeStamp)) touch = null;
    start = touch ? { x: touch.clientX, y: touch.clientY, t: event.timeStamp, id: touch.identifier, on: target,
      owned: !!(target.closest && target.closest(owned) && !target.closest(".board-scrolls")) } : null;
  }, { passive: true });
  // A one-finger move where the play area owns swipes (the CSS's touch-action) has its default cancelled too: the
  // browser then starts no fling, whose stop swallowed the next tap on a key (a quick swipe left the keypad dead for
  // two seconds). Only on game pages: elsewhere the listener would hold up every scroll. A game that does not fit
  // its window at all (.board-scrolls, a 360×600 phone) scrolls on a vertical drag (see the CSS).
  var owned = "[data-cheat-area]:not(.mastermind-board), .mastermind-board:not([data-outcome]) > :not(.result)";
  // A long vertical drag there scrolls the page after all, from where it passes 200 px: a code's swipes are shorter
  // (40 px will do), and a review dragging 300 to 500 px over the board for the settings under it found the page
  // frozen. It still counts as a swipe: a review's code swipes were 180 px.
  if (playArea()) document.addEventListener("touchmove", function (event) {
    if (!start || !start.owned || event.touches.length !== 1 || !event.cancelable) return;
    event.preventDefault();
    var touch = event.touches[0], dx = touch.clientX - start.x, dy = touch.clientY - start.y;
    if (!start.scrolled && Math.abs(dy) > 200 && Math.abs(dy) > 2 * Math.abs(dx)) {
      start.scrolled = { y: window.scrollY, from: dy };
    }
    if (start.scrolled) window.scrollTo(window.scrollX, start.scrolled.y - (dy - start.scrolled.from));
  }, { passive: false });
  function lift(event, cancelled) {
    var s = start, touch = event.changedTouches[0];
    if (!s || !touch || s.id !== touch.identifier) return;
    start = null;
    if (cancelled) return;
    var dx = touch.clientX - s.x, dy = touch.clientY - s.y, dt = event.timeStamp - s.t;
    var ax = Math.abs(dx), ay = Math.abs(dy);
    if (Math.max(ax, ay) >= 40 && dt <= 2000) {
      flushTaps();
      codeUntil = event.timeStamp + 2000;
      send("swipe", ax > ay ? (dx > 0 ? "right" : "left") : (dy > 0 ? "down" : "up"));
    } else if (dt <= 350 && Math.sqrt(dx * dx + dy * dy) <= 10) {
      var pressed = s.on.closest ? s.on.closest(pressable) : null;
      var underWay = codeUnderWay(event.timeStamp);
      // A press on a game page (but a face's, see above); elsewhere unless a code is two steps in: one swipe up is as
      // often a scroll as a code, and no code taps after a single step; a scroll down and back up, reading, still
      // leaves a link's lone tap a press.
      var face = underWay && pressed && pressed.matches("[data-choice]");
      if (pressed && !face && (playArea() || !underWay)) return;
      // Held: the click the browser would make of it never happens, and the burst's end decides. A code's tap
      // between faces is cancelled too: the browser's click goes to the nearest button (a review's tap on the gap
      // between two rows of faces answered the round, wrong).
      if ((pressed || underWay) && event.cancelable) event.preventDefault();
      // Four steps in, no scroll made the code: a face's lone tap is the code's too (a review tapped twice, slowly,
      // after the Konami code's eight swipes, and the first tap answered the round).
      if (pressed && taps === 0) { held = pressed; heldDeep = codeSteps(event.timeStamp) >= 4; }
      codeUntil = event.timeStamp + 2000;
      taps += 1;
      clearTimeout(burst);
      burst = setTimeout(flushTaps, 300);
    }
  }
  function flushTaps() {
    clearTimeout(burst);
    var press = taps === 1 && !heldDeep ? held : null;
    held = null;
    if (press) press.click();
    else if (taps > 0) send("tap", taps);
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
