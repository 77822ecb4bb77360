// The Name Game, enhanced: keys 1–6 pick, 0 says "I don't know", Enter goes on; a right answer moves on by itself
// after a beat (a tap or Enter skips it); outcomes are announced and focus goes where the next action is; hint mode
// fades faces out as the server hides them; timed mode counts down. Without this script every choice is still a
// plain form button, and Next stays.
(function () {
  "use strict";
  var game = document.getElementById("namegame");
  if (!game) return;
  var canAsk = window.Arcade && window.fetch;
  var ended = game.hasAttribute("data-ended");
  var timed = game.getAttribute("data-mode") === "timed";
  var reduced = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;

  // One answer per page: a double tap never posts twice.
  var leaving = false;
  game.addEventListener("submit", function (event) {
    if (leaving) { event.preventDefault(); return; }
    leaving = true;
    var pressed = event.submitter;
    if (pressed && pressed.hasAttribute("data-choice")) pressed.classList.add("is-pressed");
  });
  window.addEventListener("pageshow", function (event) { if (event.persisted) leaving = false; });

  // An end's buttons take no tap in its first second: a tap meant for a face as the minute ran out landed on Play
  // again, where that face had been, and a new minute threw the score away unseen (a review). Keys are not held.
  if (ended) window.Arcade.settle(game, "[data-summary] button", 1000);
  function go(button) { if (button && !leaving) button.click(); }

  // The faces stay where they were when their round is answered: the lines above them that an answer ends (the first
  // visit's how-to, "New face: take a guess") went, and the grid jumped up under the thumb heading for Next (a review).
  // Their place is kept: the page before the answer notes where the grid was, the answered page of that round keeps it.
  // The how-to's words stay too, rather than a blank band where they were (a later review).
  var area = game.querySelector("[data-cheat-area]");
  game.addEventListener("submit", function () {
    if (!area) return;
    var top = area.getBoundingClientRect().top + window.scrollY;
    // The first visit's how-to and a mode's own (Hints: "A wrong face disappears…", a review saw a blank band).
    var howto = Array.prototype.map.call(game.querySelectorAll("[data-howto], [data-mode-howto]"),
      function (line) { return line.textContent; });
    try {
      window.sessionStorage.setItem("namegame.grid", JSON.stringify({
        round: game.getAttribute("data-round"), top: top, howto: howto }));
    } catch (e) { /* private mode */ }
  }, true);
  try {
    var kept = JSON.parse(window.sessionStorage.getItem("namegame.grid") || "null");
    window.sessionStorage.removeItem("namegame.grid");
    if (kept && area && kept.round === game.getAttribute("data-round")) {
      var question = game.querySelector("#round-question");
      if (Array.isArray(kept.howto) && kept.howto.length && question && !game.querySelector("[data-howto], [data-mode-howto]")) {
        kept.howto.slice().reverse().forEach(function (words) {
          var line = document.createElement("p");
          line.className = "howto";
          line.setAttribute("data-howto", "kept");
          line.textContent = words;
          question.insertAdjacentElement("afterend", line);
        });
      }
      var rise = kept.top - (area.getBoundingClientRect().top + window.scrollY);
      if (rise > 1) area.style.paddingTop = rise + "px";
    }
  } catch (e) { /* private mode, or nothing kept */ }

  // A face to name (Reverse, Similar names, a name to type): where the question is held at the top of a short
  // window, it carries a small copy of the face once the face has scrolled under it, so the names below are read with
  // the face in sight (a low-vision review, at 400 % and with text at 200 %, scrolled between them on every round).
  (function () {
    var face = game.querySelector("#round-face"), asked = game.querySelector("h1.question");
    if (!face || !asked || !window.IntersectionObserver || game.hasAttribute("data-answered")) return;
    var copy = document.createElement("img");
    copy.className = "question-face";
    copy.src = face.currentSrc || face.src;
    copy.alt = "";
    copy.setAttribute("aria-hidden", "true");
    asked.appendChild(copy);
    var watch = null;
    function observe() {
      if (watch) watch.disconnect();
      var held = getComputedStyle(asked).position === "sticky";
      asked.classList.remove("has-face-away");
      clear();
      if (!held) return;
      watch = new IntersectionObserver(function (entries) {
        var seen = entries[entries.length - 1];
        asked.classList.toggle("has-face-away", seen.intersectionRatio < 0.35);
        clear();
      }, { rootMargin: "-" + Math.round(asked.offsetHeight) + "px 0px 0px 0px", threshold: [0, 0.35, 1] });
      watch.observe(face);
      clear();
    }
    // What the browser scrolls into view (the field typed in, a button reached by Tab) stops below the held question,
    // not under it (a low-vision review typed a name it could not see: the field had scrolled under the question).
    function clear() {
      var held = getComputedStyle(asked).position === "sticky";
      document.documentElement.style.scrollPaddingTop = held ? Math.round(asked.offsetHeight + 8) + "px" : "";
      var typing = document.activeElement;
      if (!held || !typing || typing.tagName !== "INPUT" || !game.contains(typing)) return;
      var under = asked.getBoundingClientRect().bottom + 8 - typing.getBoundingClientRect().top;
      if (under > 0) window.scrollBy(0, -under);
    }
    observe();
    window.addEventListener("resize", observe);
    game.addEventListener("focusin", function () { window.requestAnimationFrame(clear); });
  })();

  // At a lesson's end with misses, Enter reviews them, the summary's first button (a review's Enter skipped it and met
  // new people).
  var next = (ended && game.querySelector("button[data-review]")) || game.querySelector("button[data-next]");
  // A miss's correction is not skipped by the Enter that sent the answer, pressed twice (a review typed a wrong name,
  // pressed Enter twice, and never saw "You typed …, but this is …"): for a moment after it shows, Enter waits.
  var missShown = !!game.querySelector("[data-recall-miss]");
  // Nor a right typed name's "Right" (a review's double Enter went straight on to the next round, unseen).
  var rightTyped = game.getAttribute("data-recall") === "true" && game.hasAttribute("data-identified");
  // Nor is someone new met by the Enter that sent the last Got it, pressed twice: a review's double Enter skipped the
  // next introduction, and the person came up in a question never shown. (A second tap is the page's own: a tap at
  // once on Got it is a player's, and the first page's second tap posts nothing twice.)
  var introShown = !!game.querySelector("[data-intro]");
  // Only the second press of a double Enter: within a moment of the Enter that left the last page. An Enter pressed
  // for itself, however soon the page came, goes through (a desktop review's single Enters on a new page were
  // swallowed three times in a lesson, with nothing said, when every Enter within 0.7 s of a load was).
  function tooSoon() {
    var last = 0;
    try { last = Number(window.sessionStorage.getItem("namegame.enterAt")) || 0; } catch (e) { last = 0; }
    return Date.now() - last < 350;
  }
  document.addEventListener("keydown", function (event) {
    if (event.key !== "Enter") return;
    if ((missShown || introShown || rightTyped) && tooSoon()) {
      event.preventDefault();
      event.stopImmediatePropagation();
      return;
    }
    try { window.sessionStorage.setItem("namegame.enterAt", String(Date.now())); } catch (e) { /* private mode */ }
  }, true);
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
    // A dialog open over the round (How to play) has the keys: its Enter, on its heading, moved the lesson on behind
    // it, past someone being introduced (a keyboard and a blind review).
    if (document.querySelector("dialog[open]:modal")) return;
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.tagName === "SELECT")) return;
    // Single-key shortcuts turned off (WCAG 2.1.4): the keys act only while focus is in the game.
    var off = document.documentElement.getAttribute("data-shortcuts") === "off";
    if (off && !(target && game.contains(target))) return;
    if (window.Arcade && window.Arcade.elsewhere(target, game)) return;
    // The end of a timed minute keeps its score: only a deliberate press of Play again starts another.
    if (ended && timed) return;
    if (/^[0-6]$/.test(event.key)) {
      // Not from a link or a disclosure, as on Mastermind's board (a keyboard review's 3, pressed on "How to play",
      // answered the round).
      if (target && target.closest && target.closest("a[href], summary")) return;
      var choice = game.querySelector('button[data-key="' + event.key + '"]:not([disabled])');
      // In a timed minute an answered round's faces are done: the next digit goes on to the next question (a review
      // pressed digits after a miss, and the round stood still while the clock ran).
      if (!choice && timed && next) choice = next;
      if (choice) { event.preventDefault(); go(choice); }
    // (Enter on a control is the control's: a keyboard review's Enter on "Add a note" went on to the next round.)
    } else if (event.key === "Enter" && !(target && target.closest && target.closest("button, a, summary"))) {
      if (next) { event.preventDefault(); go(next); }
    } else if (typedOn && next && /^\p{L}$/u.test(event.key)) {
      // A name typed straight after a typed answer goes on, into the next round's field: a desktop review's first
      // letters of the next name were lost while the last one's spelling showed.
      event.preventDefault();
      try {
        var typed = window.sessionStorage.getItem("namegame.typed") || "";
        window.sessionStorage.setItem("namegame.typed", (typed + event.key).slice(0, 80));
      } catch (e) { /* private mode: the letters are lost, as before */ }
      go(next);
    }
  });
  // The arrows move between the faces (or names) as in their grid, the nearest in that direction within the same row
  // or column (a keyboard review: no arrows between faces, only Tab through all six). Moving presses nothing; they
  // are still the Konami code's too.
  var steps = { ArrowLeft: [-1, 0], ArrowRight: [1, 0], ArrowUp: [0, -1], ArrowDown: [0, 1] };
  document.addEventListener("keydown", function (event) {
    var step = steps[event.key];
    var from = step && event.target && event.target.closest && event.target.closest("button[data-choice]");
    if (!from || !game.contains(from) || event.ctrlKey || event.metaKey || event.altKey) return;
    var box = from.getBoundingClientRect(), nearest = null, distance = Infinity;
    Array.prototype.forEach.call(game.querySelectorAll("button[data-choice]:not([disabled])"), function (face) {
      var other = face.getBoundingClientRect();
      var dx = other.left + other.width / 2 - (box.left + box.width / 2);
      var dy = other.top + other.height / 2 - (box.top + box.height / 2);
      var along = step[0] ? dx * step[0] : dy * step[1];
      var across = step[0] ? Math.abs(dy) < box.height / 2 : Math.abs(dx) < box.width / 2;
      if (face !== from && across && along > 0 && along < distance) { distance = along; nearest = face; }
    });
    event.preventDefault();
    if (nearest) nearest.focus();
  });
  var typedOn = !ended && !timed && game.getAttribute("data-recall") === "true"
    && (game.hasAttribute("data-answered") || game.hasAttribute("data-identified"));
  var typedAhead = "";
  try {
    typedAhead = window.sessionStorage.getItem("namegame.typed") || "";
    window.sessionStorage.removeItem("namegame.typed");
  } catch (e) { typedAhead = ""; }

  // A page reloaded (a timed minute's end) starts where its focus is, not where the last one was scrolled (a
  // low-vision review: the score had focus 1,100 px above a view left on the last round's faces).
  if ("scrollRestoration" in window.history) window.history.scrollRestoration = "manual";

  // The keys work only with this script: only then are they explained.
  var keys = game.querySelector("[data-keys]");
  if (keys) keys.hidden = false;

  // Names compared as the server does, without case, accents or extra spaces.
  function fold(words) {
    return words.normalize("NFD").replace(/[\u0300-\u036f]/g, "").replace(/\s+/g, " ").trim().toLowerCase();
  }

  // A name missed in a typed round is typed once right before going on, as flash-card apps ask (the server offers it
  // where it applies). Letters are compared without case or accents. Nothing goes on until it is typed, Next and Enter
  // alike, as Duolingo redoes a mistake (a review skipped every one with Next, the field empty, and the lesson ended).
  var retype = !ended && game.querySelector("[data-retype]");
  var retypeInput = retype && retype.querySelector("[data-retype-input]");
  if (retypeInput) {
    retype.hidden = false;
    var retypeSaid = document.createElement("span");
    retypeSaid.className = "field-help";
    retype.appendChild(retypeSaid);
    var retyped = function () { return fold(retypeInput.value) === fold(retype.getAttribute("data-retype")); };
    // Emptied first, so the same words a second time are said again (a blind review's second wrong copy was silent).
    var sayRetype = function (words) {
      retypeSaid.textContent = words;
      if (!announce) return;
      announce.textContent = "";
      window.setTimeout(function () { announce.textContent = words; }, 60);
    };
    retypeInput.addEventListener("input", function () {
      if (!retyped() || retype.classList.contains("is-done")) return;
      retype.classList.add("is-done");
      retypeInput.readOnly = true;
      // Shown here, and said as the next question opens: said here, the page that followed cut it off (a blind review
      // never heard that the name typed counted).
      retypeSaid.textContent = retype.getAttribute("data-retype-done");
      carry(retypeSaid.textContent);
      window.setTimeout(function () { go(next); }, reduced ? 1500 : 700);
    });
    // What stands in the way is said each time, out loud too, and the field takes the focus (two reviews, one by ear:
    // a first Enter skipped the step without a word).
    var holdFor = function () {
      var empty = !retypeInput.value.trim();
      sayRetype(retype.getAttribute(empty ? "data-retype-empty" : "data-retype-again"));
      retypeInput.focus();
      // A wrong try is selected, so the next typing replaces it (a blind review typed again after it).
      if (!empty) retypeInput.select();
    };
    retypeInput.addEventListener("keydown", function (event) {
      if (event.key !== "Enter") return;
      event.preventDefault();
      if (retyped()) go(next);
      else holdFor();
    });
    // Caught on the way to the page's own submit listener, which would count the page as left.
    Array.prototype.forEach.call(game.querySelectorAll("button[data-next]"), function (button) {
      if (button.form) button.form.addEventListener("submit", function (event) {
        if (retyped()) return;
        event.preventDefault();
        event.stopPropagation();
        holdFor();
      });
    });
  }

  // Enter in the empty name field is said, not only shown in the browser's bubble (a blind review heard nothing).
  var recallInput = game.querySelector("[data-recall-input]"), emptySaid = game.querySelector("[data-announce]");
  if (recallInput && emptySaid) recallInput.addEventListener("invalid", function () {
    emptySaid.textContent = "";
    window.setTimeout(function () { emptySaid.textContent = recallInput.getAttribute("data-empty"); }, 60);
  });

  // How the last page's answer was given ("key" or "pointer"), noted as it was sent (see the submit listener below).
  // (Kept from page to page by site.js, which also rings a focus set here after a key.)
  var arrivedBy = window.Arcade ? window.Arcade.lastInput() : null;

  // Focus goes to what the player needs next, in view: the score at the end of a timed minute, the summary, the
  // right answer after a wrong pick, the missed name to type once, Next after an answer, the name field in recall,
  // else the question.
  // A short window (a page at 400 %, text at 200 % on a phone) has no room for the right card and the words about the
  // miss together: the words, with the right face beside them, and their Next (which answers as the card does).
  var short = window.matchMedia && window.matchMedia("(max-height: 32em)").matches;
  var missNext = short && game.querySelector("[data-outcome] [data-right-face]")
    && game.querySelector("[data-outcome] button[data-go-on]");
  var focusTarget = ended
    ? game.querySelector("[data-score]") || game.querySelector("[data-summary-heading]") || next
    : missNext || game.querySelector("button[data-answer]:not([disabled])") || retypeInput
      || game.querySelector("[data-outcome] button[data-next]")
      || game.querySelector("[data-recall-input]") || next || game.querySelector("[data-start-learn]")
      || game.querySelector(".question");
  // On a short window (a page zoomed to 400 % is 225 px tall) an open question's faces started below its foot, and a
  // timed minute ran while the player scrolled to them (a low-vision review): the question goes to the top, where it
  // stays, and the faces come up under it.
  var openChoices = !ended && !game.hasAttribute("data-answered") && !game.hasAttribute("data-taught")
    && game.querySelector("ul.faces, ul.names");
  var asked = game.querySelector("h1.question");
  // A timed minute's clock is held at the top: the question is held under it, not scrolled beneath it (see the CSS).
  var clock = game.querySelector(".timer");
  if (clock) game.style.setProperty("--timer-height", clock.offsetHeight + "px");
  if (openChoices && asked && openChoices.getBoundingClientRect().top > window.innerHeight * 0.6) {
    asked.scrollIntoView({ block: "start" });
  }
  var carried = "";
  try {
    carried = window.sessionStorage.getItem("namegame.said") || "";
    window.sessionStorage.removeItem("namegame.said");
  } catch (e) { carried = ""; }
  // Words read first as the focus lands on `target`: hidden words opening its name.
  function opensWith(target, words) {
    var said = document.createElement("span");
    said.className = "visually-hidden";
    said.setAttribute("data-carried", "");
    said.textContent = words + " ";
    target.insertBefore(said, target.firstChild);
  }
  // A timed answer's words, carried from its page, open the next question's heading, read as the focus lands there:
  // said by the live region, they came after the next question, a second late (a blind review).
  var carriedAhead = !!carried && carried !== "timer" && !!focusTarget && focusTarget.matches("h1.question");
  if (carriedAhead) opensWith(focusTarget, carried);
  // A miss's words open the right face's name, which takes the focus: said by the live region too, "Wrong. That's …,
  // you were looking for …" and the face's 25 words came at once, one over the other (a blind review). The face
  // says whom it was looking for. In a timed minute too, with what the miss cost (a blind review heard only "The
  // answer: …", never that the pick was wrong, nor the seconds it took off the clock).
  var tappedLine = !!focusTarget && focusTarget.matches("button[data-answer]")
    && game.querySelector("[data-outcome] [data-tapped]");
  if (tappedLine) {
    opensWith(focusTarget, text(game.querySelectorAll("[data-outcome] :is([data-tapped], [data-penalty])")).join(" "));
  }
  if (focusTarget && !(window.Arcade && window.Arcade.languageSwitched)) {
    focusTarget.focus({ preventScroll: true });
    if (typedAhead && focusTarget.hasAttribute("data-recall-input") && !focusTarget.value) focusTarget.value = typedAhead;
    // A name kept in its field (a namesake's first name, refused) is typed on from its end: the caret at its start
    // made "Mat" and then " Holloway" into " HollowayMat", marked wrong (a keyboard review).
    if (focusTarget.tagName === "INPUT" && focusTarget.value) {
      focusTarget.setSelectionRange(focusTarget.value.length, focusTarget.value.length);
      // …or typed again whole after it, as the refusal asks ("the first name and the surname"): what follows the kept
      // name is sent when it begins with that name again (a blind review's "MattMatt Achebe", marked wrong).
      var kept = focusTarget.value, keptField = focusTarget;
      var recallForm = keptField.hasAttribute("data-recall-input") && keptField.form;
      if (recallForm) recallForm.addEventListener("submit", function () {
        var rest = keptField.value.indexOf(kept) === 0 ? fold(keptField.value.slice(kept.length)) : "";
        if (rest && rest.indexOf(fold(kept)) === 0) keptField.value = keptField.value.slice(kept.length).trim();
      }, true);
    }
    // Reached by a tap, a focused button shows no ring until a key is pressed: on a phone the ring round Next and
    // Got it read as something selected (a review). Reached by a key, site.js rings it at once.
    if (arrivedBy === "pointer" && focusTarget.tagName === "BUTTON") {
      focusTarget.setAttribute("data-quiet-focus", "");
      document.addEventListener("keydown", function () { focusTarget.removeAttribute("data-quiet-focus"); },
        { once: true, capture: true });
    }
    // What happened comes into sight too, where the window has room for both (a review, zoomed in: the words about
    // a miss were below the fold while the focus sat on the right face); the focused control wins.
    var outcome = !ended && focusTarget !== next && game.querySelector("[data-outcome]");
    // (A short window's miss: its words from their first line, Next among them.)
    if (missNext) game.querySelector("[data-outcome]").scrollIntoView({ block: "start" });
    [outcome, focusTarget].forEach(function (element) {
      if (!element) return;
      var box = element.getBoundingClientRect();
      if (box.top < 0 || box.bottom > window.innerHeight) {
        element.scrollIntoView({ block: ended ? "start" : "nearest", behavior: reduced || outcome ? "auto" : "smooth" });
      }
    });
  }

  // Outcomes are read out through the live region the page carries from its load (filled a moment later, so the
  // change is announced).
  // What an earlier page had to say and could not finish (a right answer moves on after a beat, More time reloads
  // the page) is said first here: a review heard nothing after a right answer, the next page cut it off.
  var announce = game.querySelector("[data-announce]");
  function text(elements) {
    return Array.prototype.map.call(elements, function (p) { return p.textContent.replace(/\s+/g, " ").trim(); })
      .filter(Boolean);
  }
  // A lesson's end is a payoff the first time it is seen (a reload, or the page seen again, stays still): its praise
  // pops, and a perfect lesson (or a new best) bursts.
  var praise = game.querySelector("[data-praise]");
  if (praise) {
    var seen = null, id = praise.getAttribute("data-session");
    try {
      seen = window.sessionStorage.getItem("namegame.praised");
      window.sessionStorage.setItem("namegame.praised", id);
    } catch (e) { seen = null; }
    if (seen !== id) {
      praise.classList.add("is-fresh");
      var kind = praise.getAttribute("data-praise");
      if (kind !== "keep") window.Arcade.sound("done");
      if (kind === "perfect" || kind === "record") {
        setTimeout(function () { window.Arcade.burst(praise); }, 200);
      }
    }
  }
  var outcome = game.querySelector("[data-outcome]") || game.querySelector("[data-summary]");
  // An answer is heard once (a reload stays quiet): a rising pair when right, a falling one for a miss, nothing for
  // "I don't know", the honest answer, shown calmly too.
  var answered = game.querySelector("[data-outcome]"), roundId = game.getAttribute("data-round") || "";
  var heard = null;
  try { heard = window.sessionStorage.getItem("namegame.heard"); } catch (e) { heard = null; }
  if (answered && roundId && heard !== roundId) {
    try { window.sessionStorage.setItem("namegame.heard", roundId); } catch (e) { /* private mode */ }
    if (game.hasAttribute("data-identified")) window.Arcade.sound("right");
    else if (!answered.classList.contains("is-calm")) window.Arcade.sound("wrong");
  }
  var intro = game.querySelector("[data-intro]");
  // A refusal (a namesake's first name alone) arrives with its page: said first, as a change (a blind review heard
  // nothing of it, the alert being there from the load).
  var refused = game.querySelector("[data-error]");
  var said = refused ? text([refused]) : [];
  // Said once, by the live region: an alert as well made it twice (a blind review heard it two or three times).
  if (refused) refused.removeAttribute("role");
  if (carried === "timer") {
    // What More time did, then the clock (a blind review heard only the time left, and could not tell it was added).
    var clock = game.querySelector(".timer[data-added]");
    said = (clock ? [clock.getAttribute("data-added")] : []).concat(text(game.querySelectorAll(".timer-text")));
  } else if (carried && !carriedAhead) {
    said = [carried];  // a timed answer's words, its own page gone in a moment (see below)
  }
  if (outcome && !tappedLine) {
    // (Not the day's goal, read as a label run into its figure: "Today's goal Answered today: 12 of 20", a blind
    // review; it is the next thing in the page.)
    said = said.concat(text(outcome.querySelectorAll(
      "h1, .score, .best, p:not([data-advance-choice]):not([data-today] p)")).slice(0, 3));
  } else if (intro) {
    // Someone new: who they are, not only "Meet someone new".
    said = said.concat(text(intro.querySelectorAll("h1, [data-intro-name], [data-intro-title]")));
    var look = intro.querySelector("img");
    if (look && look.alt) said.push(look.alt);
  } else if (game.querySelector("[data-recall-input]") && game.querySelector("[data-cheat-help]")) {
    said = said.concat(text(game.querySelectorAll("[data-cheat-help]")));
  }
  if (announce && said.length) {
    window.setTimeout(function () {
      // A timed answer moving on says its words on the next question, where they go (see carry): said here too, they
      // were heard twice, in full and then again shorter (a blind review).
      if (timed && game.classList.contains("is-advancing")) return;
      announce.textContent = window.Arcade.sentences(said);
    }, 150);
  }
  // A right answer's words go with the player to the next round, and More time's to the page it reloads.
  function carry(words) {
    try { window.sessionStorage.setItem("namegame.said", words); } catch (e) { /* private mode: said here only */ }
  }
  // (A right answer's words are said on its own page, which stays long enough now: carried over too, they were heard
  // twice, a blind review.)
  var moreTime = game.querySelector("[data-more-time]");
  if (moreTime) moreTime.form.addEventListener("submit", function () { carry("timer"); });

  // A right answer: the name shows, then the next round comes by itself (longer with reduced motion). A tap
  // anywhere but on a control, or Enter, skips the wait; any other key, or a tap on a control, stops it; the switch
  // below (or sessionStorage "namegame.autoAdvance" = "off", as the tests set it) keeps every answer.
  // An answer given by keyboard stays until Enter unless the player unticks the switch (a blind review: the page moved
  // on at 2.6 s while the answer was still being read), and the switch shows it ticked (two reviews saw it unticked
  // while every keyboard answer waited); a tap's or a click's moves on by itself. In a timed minute a keyboard's
  // answer moves on too: its clock runs while Enter waits (a review lost 5 s a round). So does a name typed on a touch
  // screen, whose keys are the screen's own: a review's phone waited on every typed answer and moved on after every
  // tapped one. (A page sent on by the script itself, a hint round's last face say, keeps the way the player came.)
  var byKeyboard = arrivedBy === "key";
  var touch = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
  var chosen = null, hold = false;
  try {
    chosen = window.localStorage.getItem("namegame.autoAdvance");
    hold = window.sessionStorage.getItem("namegame.autoAdvance") === "off";
  } catch (e) { chosen = null; }
  hold = hold || chosen === "off" || (chosen !== "on" && byKeyboard && !timed && !touch);
  var wait = null;
  // A forgiven typo waits for Next: its spelling is there to be read; so does a helped answer's note, which says why
  // Right did not rise.
  // Nor when the answered round is not all in sight (zoomed in: a low-vision review could not scroll through the
  // names in the time; the names are what a right answer teaches).
  var choices = game.querySelector("ul.faces, ul.names");
  var inSight = !choices || (choices.getBoundingClientRect().top >= 0
    && choices.getBoundingClientRect().bottom <= window.innerHeight + 1);
  // A timed minute's miss, too, once its right face has been seen a moment: the clock runs meanwhile (a review lost
  // ten seconds on Next after a wrong pick).
  var timedMiss = timed && game.hasAttribute("data-taught") && !game.hasAttribute("data-answered");
  var advances = !ended && (game.hasAttribute("data-identified") || timedMiss) && inSight
    && !game.querySelector("[data-typo], [data-helped]") && next;
  // The player's own switch, under Next (WCAG 2.2.1: a review's slow reader lost each right answer after a second):
  // "Pause after right answers", kept in this browser; ticking it holds this answer, unticking it moves it on.
  var waitBox = game.querySelector("[data-wait-next]");
  if (waitBox && !ended) {
    waitBox.closest("[data-advance-choice]").hidden = false;
    waitBox.checked = hold;
    waitBox.addEventListener("change", function () {
      try { window.localStorage.setItem("namegame.autoAdvance", waitBox.checked ? "off" : "on"); } catch (e) { /* private */ }
      if (!waitBox.checked) {
        if (advances && !game.classList.contains("is-advancing")) advance();
        return;
      }
      window.clearTimeout(wait);
      game.classList.remove("is-advancing");
    });
  }
  if (advances && !hold) advance();
  function advance() {
    // The next question about a second after the answer (the design's beat; a review timed 1.95 s from Enter to the
    // next round at 1.7 s and found it heavy), long enough to read the name shown; a slower reader has
    // the switch below, and a keyboard's answer (a screen reader's) stays until Enter. Reduced motion takes away the
    // motion, not the pace: 4 s there was every right answer slowed (a review); 2 s, counted down in whole seconds.
    // A timed minute's clock runs meanwhile: there a right answer moves on at once (a review: "the score measures
    // waiting, not knowing").
    var delay = timedMiss ? (reduced ? 2000 : 1500) : timed ? 600 : reduced ? 2000 : 1200;
    // Team mode's answer shows six names and roles, which is what it is for: time to read them (a review saw them
    // for about a second and a half).
    if (game.getAttribute("data-mode") === "team") delay = Math.max(delay, 4000);
    // Twice as long with large text or in a short window (a page at 200 % or 400 %), outside a timed minute: a
    // low-vision review could not study the face it had named in 1.7 s, and the switch to keep it was out of sight.
    // A timed miss's correction too, the clock running (a low-vision review at 400 % lost its twenty words in 2 s).
    if ((!timed || timedMiss) && window.Arcade && window.Arcade.slowReading()) delay *= 2;
    game.style.setProperty("--advance-ms", delay + "ms");
    game.classList.add("is-advancing");
    // A timed answer's page is gone before its words are heard: they go with the player to the next question (a
    // blind review heard nothing, right or wrong, in 30 picks, until "Time's up").
    // A miss says who was tapped and who was asked for, as outside a timed minute (a blind review heard "Wrong. That's
    // Rosa Xiong." and never who was right).
    if (timed && outcome) {
      var words = text(outcome.querySelectorAll("[data-tapped], [data-right-name]"));
      carry((words.length ? words : text(outcome.querySelectorAll("p:not([data-advance-choice])")).slice(0, 1)).join(" "));
    }
    wait = window.setTimeout(function () { go(next); }, delay);
    // Without motion its bar stands still, so Next counts the seconds down instead (a review with reduced motion saw
    // the round move on by itself with nothing to warn of it). Not read out: the answer's words are being heard.
    if (reduced) {
      var advanceLeft = Math.ceil(delay / 1000);
      var advanceCount = document.createElement("span");
      advanceCount.className = "advance-count";
      advanceCount.setAttribute("aria-hidden", "true");
      advanceCount.setAttribute("data-advance-count", "");
      advanceCount.textContent = " " + advanceLeft;
      next.appendChild(advanceCount);
      var advanceTick = window.setInterval(function () {
        advanceLeft -= 1;
        var still = game.classList.contains("is-advancing");
        if (advanceLeft > 0 && still) { advanceCount.textContent = " " + advanceLeft; return; }
        window.clearInterval(advanceTick);
        if (!still) advanceCount.remove();
      }, 1000);
    }
    var shownAt = window.performance ? window.performance.now() : 0;
    document.addEventListener("pointerdown", function skip(event) {
      // The second tap of a double tap that answered is not a tap on the answer: it skipped the last round's result
      // straight to the lesson's summary (a review).
      if (window.performance && window.performance.now() - shownAt < 500) return;
      document.removeEventListener("pointerdown", skip);
      window.clearTimeout(wait);
      game.classList.remove("is-advancing");
      // A tap on the answered faces, buttons no more, skips the wait too (a review's tap on one stopped the round
      // moving on, and nothing said why).
      var control = event.target.closest && event.target.closest("a, button, input, select, summary, label");
      if (!control || control.disabled) go(next);
    });
    // A key other than Enter (Tab to read the role, an arrow to scroll) keeps the round on screen: a review's
    // magnifier user lost it as the page moved on under the focus. Next, or Enter, goes on.
    // Not in a timed minute, whose clock runs: there every key goes on, Enter and the digits at once.
    var stay = function (event) {
      if (event.key === "Enter" || timed) return;
      window.clearTimeout(wait);
      game.classList.remove("is-advancing");
      document.removeEventListener("keydown", stay, true);
    };
    document.addEventListener("keydown", stay, true);
  }

  // Hint mode: ask the server which faces are hidden now (it decides; the
  // page never knows the answer), and fade them out. Not on an introduction, which has no faces to count (a review
  // found "Faces left: 0" in its live region).
  var hintMs = parseInt(game.getAttribute("data-hint-ms"), 10);
  if (hintMs && canAsk && !game.hasAttribute("data-answered") && !game.hasAttribute("data-taught")
      && !game.querySelector("[data-intro]")) {
    var poll = window.setInterval(function () {
      window.Arcade.get(window.location.pathname).then(function (r) { return r.text(); }).then(function (html) {
        var doc = new DOMParser().parseFromString(html, "text/html");
        var fresh = doc.getElementById("namegame");
        if (!fresh || fresh.getAttribute("data-round") !== game.getAttribute("data-round")
            || fresh.hasAttribute("data-taught")) { window.clearInterval(poll); return; }
        var gone = [], lost = null;
        Array.prototype.forEach.call(fresh.querySelectorAll("button[data-hidden]"), function (hidden) {
          var mine = game.querySelector('button[data-choice="' + hidden.getAttribute("data-choice") + '"]');
          if (mine && !mine.hasAttribute("data-hidden")) {
            if (document.activeElement === mine) lost = mine;  // (noted before it is disabled, which blurs it)
            // Its number only ("Face 5"): read whole, each face's description ran on for longer than a face stays
            // (a blind review: every 3 s, "Gone: Face 5: Long pink hair, round glasses…").
            gone.push(mine.getAttribute("data-face-label") || mine.getAttribute("data-key"));
            mine.setAttribute("data-hidden", "true");
            mine.disabled = true;
            mine.classList.add("is-hidden");
            // Gone from the list a screen reader counts too (a blind review arrowed through blank items).
            if (mine.closest("li")) mine.closest("li").setAttribute("aria-hidden", "true");
          }
        });
        // One face left: a beat later the round ends by itself, as not known, showing who it is (a review waited
        // 27 s before a round with one face left, which said nothing, ended at its tap).
        var left = game.querySelectorAll("button[data-choice]:not([data-hidden])");
        // The face the focus was on keeps the player's place: the focus goes on to the next face left (a keyboard
        // review's focus fell to the page's body as its face went).
        if (lost && left.length) {
          var after = Array.prototype.filter.call(left, function (b) {
            return lost.compareDocumentPosition(b) & Node.DOCUMENT_POSITION_FOLLOWING;
          });
          (after[0] || left[left.length - 1]).focus({ preventScroll: true });
        }
        // A face gone is said, which one and how many are left (a blind review: they vanished in silence under the
        // cursor; a later one heard only "Faces left: 4", and walked all six again to find which had gone).
        var count = (game.getAttribute("data-faces-left") || "").replace("%d", String(left.length));
        if (announce && count && announce.getAttribute("data-said-left") !== String(left.length)) {
          announce.setAttribute("data-said-left", String(left.length));
          var which = gone.length ? (game.getAttribute("data-face-gone") || "%@").replace("%@", gone.join("; ")) : "";
          // (Japanese runs its sentences on, with no space between them: a Japanese reader.)
          var gap = document.documentElement.lang === "ja" ? "" : " ";
          if (left.length < 6) announce.textContent = (which ? which + gap : "") + count;
        }
        if (left.length === 1) {
          window.clearInterval(poll);
          window.setTimeout(function () {
            if (left[0].isConnected && !game.hasAttribute("data-answered")) left[0].click();
          }, hintMs);
        }
      });
    }, hintMs);
  }

  // Timed mode: count down (the text and the bar), change in the last five seconds, then show the summary.
  var timer = game.querySelector("[data-seconds-left]");
  if (timer && !ended) {
    var text = timer.querySelector(".timer-text"), bar = timer.querySelector("progress");
    var left = parseInt(timer.getAttribute("data-seconds-left"), 10);
    var template = text.textContent.replace(String(left), "{n}");
    // The question carries the time too, shown where the clock has scrolled away (a window zoomed to 400 %).
    var asked = game.querySelector("h1.question");
    var short = (timer.getAttribute("data-short") || "").replace(String(left), "{n}");
    if (asked) asked.setAttribute("data-time-left", short.replace("{n}", String(left)));
    var tick = window.setInterval(function () {
      left -= 1;
      if (left <= 0) { window.clearInterval(tick); window.location.reload(); return; }
      text.textContent = template.replace("{n}", String(left));
      if (asked) asked.setAttribute("data-time-left", short.replace("{n}", String(left)));
      timer.setAttribute("data-seconds-left", String(left));
      if (bar) bar.value = left;
      if (left <= 5) {
        timer.classList.add("is-ending");
        timer.setAttribute("data-ending", "true");
        if (asked) asked.setAttribute("data-ending", "");
      }
      // More time comes near the end, with a spoken warning (issue 46; the timer itself is not live, or every
      // second would be read).
      var later = timer.querySelector(".more-time.is-later");
      if (later && left <= parseInt(timer.getAttribute("data-more-time-from"), 10)) {
        // With large text the clock has no room beside it: it comes under the faces, where it moves nothing (in the
        // clock held at the top it pushed the question and the faces down 125 px mid-minute, a low-vision review).
        var choices = game.querySelector("[data-cheat-area]");
        if (choices && window.matchMedia && window.matchMedia("(max-width: 20em)").matches) {
          choices.insertAdjacentElement("afterend", later);
        }
        later.classList.remove("is-later");
        if (announce) announce.textContent = timer.getAttribute("data-warning") || "";
      }
    }, 1000);
  }
})();
