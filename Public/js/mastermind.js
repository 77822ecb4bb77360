// Mastermind, enhanced: the row being played is the input. The keypad and the physical keyboard fill its cells,
// Backspace or Delete clear the last one, Enter sends the guess (once: input waits while it is in flight). Boards
// update in place from a server-rendered fragment; a refused guess shakes the row and keeps its digits; a digit the
// rules do not use and a row sent short are refused here, with a shake and a word in the message line (which keeps
// its place, so nothing moves). A finished game opens its results as a dialog once the last pegs are shown. Cells
// shrink so the board and the keypad fit the screen, and keep their size to the end of the game; the page never
// scrolls itself. Without this script the forms work as they are.
(function () {
  "use strict";
  var host = document.getElementById("mastermind");
  if (!host || !window.Arcade || !window.fetch) return;
  var live = document.getElementById("mastermind-live");
  var typed = [];        // the current row's cells: a digit or ""
  var coveredAsked = null; // the row whose Enter was asked again: a typed digit covers the revealed one
  var aroundReveal = null;  // when the last key, a digit, was refused because the revealed digit keeps its place
  var revealed = null;   // {position (0-based), digit} from the Konami cheat: shown in its cell until typed over
  var rowKey = "";       // game:turn the typed cells belong to
  var busy = false;      // a guess (or any board action) is in flight
  var revealing = false; // the newest row's pegs are still coming: an Enter waits for them (see press)
  var early = [];        // digits typed while a row was in flight: typed into the next row when it comes
  var waiting = false;   // an Enter pressed during the reveal
  var untouched = false; // nothing typed since the last guess went: Enter on the empty row is that guess's again
  var notesOn = false;
  var notePlace = null;  // the place notes go to, chosen with the arrows or a tap on its box; else the cursor's
  var results = null;    // the open results dialog

  // Play by ear (issue 46): everything worth hearing goes through the one polite live region the page has from its
  // load. Emptied, then filled on the next frame, so the same words twice (a digit typed again) are read again.
  // Words said in a burst are said once, the last: typing 7777 and Enter at speed, a blind review heard eight changes
  // in 210 ms, each digit's echo and the row before the score that mattered.
  var sayTimer = null;
  function say(text) {
    if (!live || !text) return;
    clearTimeout(sayTimer);
    live.textContent = "";
    sayTimer = setTimeout(function () { live.textContent = text; }, 120);
  }
  // Single-key shortcuts turned off (the settings beside Theme, WCAG 2.1.4): keys act only while focus is in the game.
  function shortcutsOff() { return document.documentElement.getAttribute("data-shortcuts") === "off"; }

  function board() { return host.querySelector("#board"); }
  function field() { return host.querySelector("#guess"); }
  function form() { return host.querySelector("[data-mastermind-form]"); }
  function length() { return parseInt(board().getAttribute("data-length"), 10) || 4; }
  // What the row shows, and so what Enter plays: the digits typed, the revealed digit where its cell is still empty.
  function shown() {
    return typed.map(function (digit, i) {
      return digit === "" && revealed && revealed.position === i ? revealed.digit : digit;
    });
  }
  // The next cell to type into: the first empty one, never the revealed digit's (a review's next taps after the
  // Konami code wrote over it).
  function nextSlot() {
    for (var i = 0; i < typed.length; i++) {
      if (typed[i] === "" && !(revealed && revealed.position === i)) return i;
    }
    return -1;
  }
  function cursor() {
    var i = nextSlot();
    return i < 0 ? typed.length - 1 : i;
  }

  // Notes: digits ruled out per place, kept in this browser for this game.
  function notesKey() { return "arcade-mm-notes-" + board().getAttribute("data-game"); }
  function loadNotes() {
    try { return JSON.parse(window.localStorage.getItem(notesKey()) || "{}"); } catch (e) { return {}; }
  }
  function saveNotes(notes) {
    try { window.localStorage.setItem(notesKey(), JSON.stringify(notes)); } catch (e) { /* private mode */ }
  }
  function noteAt() { return notePlace === null ? cursor() : notePlace; }
  // "3: ruled out in place 2": the key's noted label with the place the note is for.
  function notedLabel(button) {
    return (button.getAttribute("data-noted-label") || "").replace("{place}", String(noteAt() + 1));
  }
  // A hint's code typed into the row with one tap (a review retyped it by hand from a line of text).
  function hintButton() {
    // A nudge ("only one code fits") shows its guess when asked: then it is a hint as any other.
    var nudge = host.querySelector("[data-message] > p[data-hint-nudge]:not(.is-shown)");
    var show = nudge && nudge.querySelector("[data-hint-show]");
    if (show && !show.onclick) {
      show.onclick = function (event) {
        event.preventDefault();
        nudge.classList.add("is-shown");
        nudge.setAttribute("data-hint", nudge.getAttribute("data-hint-nudge"));
        say(nudge.querySelector(".hint-guess").textContent);
        hintButton();
        var use = nudge.querySelector(".hint-use");
        if (use) use.focus();
      };
    }
    var hint = host.querySelector("[data-message] > p[data-hint]");
    if (!hint) return;
    // A hint can be put aside without acting on it (a low-vision review, text at 200 % on a phone: with the keys it
    // took almost half the screen, and only "Type it in" took it away); Hint shows it again.
    var line = host.querySelector("[data-message]");
    if (!hint.querySelector(".hint-away") && line && line.getAttribute("data-hint-close")) {
      var away = document.createElement("button");
      away.type = "button";
      away.className = "button-quiet hint-away";
      away.setAttribute("aria-label", line.getAttribute("data-hint-close"));
      away.textContent = "\u00D7";
      away.addEventListener("click", function () {
        hint.hidden = true;
        placeMessage();
        board().focus({ preventScroll: true });
      });
      hint.appendChild(away);
    }
    if (hint.querySelector("[data-hint-type]")) return;
    var code = hint.getAttribute("data-hint") || "";
    if (code.length !== length()) return;
    var use = document.createElement("button");
    use.type = "button";
    use.className = "button-quiet hint-use";
    use.setAttribute("data-hint-type", "");
    use.textContent = hint.getAttribute("data-hint-use") || code;
    use.addEventListener("click", function () {
      typed = code.split("");
      untouched = false;
      // Its job done, the hint goes: over the last rows of a phone it hid the row it had just typed (a review).
      hint.hidden = true;
      showTyped();
      say(rowWords());
      board().focus({ preventScroll: true });
      // …and the row it typed is brought into sight (a low-vision review at 200 % on a phone: it was filled 372 px
      // above the screen's top, and could not be checked before Enter).
      placeMessage();
      inSight(host.querySelector(".slot-current"));
    });
    hint.appendChild(use);
  }
  // Notes said: their place, what it rules out, a note taken back (the sentences from the Notes key).
  function notesWords(which, digit) {
    var key = host.querySelector("[data-keypad] [data-notes]");
    var noted = (loadNotes()[String(noteAt())] || []).slice().sort();
    var row = host.querySelector("[data-current-row]");
    if (which === "data-ear-place" && !noted.length) which = "data-ear-empty";
    return ((key && key.getAttribute(which)) || "").replace("{place}", String(noteAt() + 1))
      .replace("{digits}", noted.join((row && row.getAttribute("data-ear-separator")) || ", "))
      .replace("{digit}", digit || "");
  }
  // The place notes go to moves by `step` (the arrows), or to `place` (a tap on its box).
  function moveNotes(step, place) {
    var to = place === undefined ? noteAt() + step : place;
    notePlace = Math.max(0, Math.min(length() - 1, to));
    showTyped();
    say(notesWords("data-ear-place"));
  }

  function toggleNote(digit) {
    var notes = loadNotes(), place = String(noteAt());
    var list = notes[place] || [];
    var at = list.indexOf(digit);
    if (at >= 0) list.splice(at, 1); else list.push(digit);
    notes[place] = list;
    saveNotes(notes);
    return at < 0;
  }

  // `onKeypad`: pressed on the on-screen keys (a tap or a click), not typed.
  function press(key, onKeypad) {
    // A slow answer keeps the digits typed meanwhile for the next row (a review on a slow line lost them), and an
    // Enter after them, as do the keys after an Enter that waits for a reveal: a review typed five guesses in one
    // burst and two were played, the rest gone without a word. (An Enter alone is a double Enter's second: the row it
    // finds is empty, and it sends nothing.)
    var later = busy || waiting;
    if (later && (/^[0-9]$/.test(key) || (key === "Enter" && early.length)) && early.length < 30) early.push(key);
    if (later || !form()) return;
    unflash();  // a refusal or a tip goes at the next key
    // An Enter straight after a digit refused beside the revealed one is asked again: the row is not what was typed
    // (a review typed 4152 + Enter around a revealed 1 in place 3 and played 4115). Straight after only: an Enter
    // pressed once the refusal was there to read sends the row it told of (a keyboard review was told "Press Enter
    // to submit it", pressed Enter, and was told the same again).
    // Nor on the on-screen Enter, which a finger moves to on purpose (a review's tap after the refusal did nothing).
    var held = aroundReveal !== null && !onKeypad && window.performance.now() - aroundReveal < 1000;
    aroundReveal = null;
    var digits = keypadDigits();
    if (key !== "Enter") untouched = false;
    // A hint stays while its row is typed (a low-vision review typed a hinted code from memory), unless it covers the
    // row above (the last row's); the next row sent replaces it.
    var hint = host.querySelector("[data-message] > p[data-hint]");
    var above = board() && board().classList.contains("message-above");
    if (hint && above && !host.classList.contains("keys-held") && wideMessages()) hint.hidden = true;
    // The server's refusal of the last row goes once the row changes (a review read "You already tried this guess"
    // over a row it had since deleted).
    var refused = host.querySelector("[data-message] > p[data-error]");
    // (Its row is still the refused one until a key changes it, whether or not its words are still shown.)
    var wasRefused = !!refused && !refused.hasAttribute("data-spent");
    if (refused && key !== "Enter") {
      refused.hidden = true;
      refused.setAttribute("data-spent", "");
    }
    var heard = "";
    if (key === "Backspace" || key === "Delete") {
      for (var i = typed.length - 1; i >= 0; i--) {
        if (typed[i] !== "") { heard = earText("data-ear-deleted", "{digit}", typed[i]); typed[i] = ""; break; }
      }
    } else if (key === "Enter") {
      if (revealing) { waiting = true; return; }
      if (untouched && typed.join("") === "") return;
      if (shown().indexOf("") >= 0) { refuse("data-short"); return; }
      if (held) { refuse("data-full", host.querySelector("[data-revealed]")); return; }
      // A digit typed before the reveal, other than the revealed one in its place, is asked about once: shown as a
      // badge only, it was played (a review spent a guess on a digit it had just been told was wrong).
      var over = revealed && typed[revealed.position];
      if (over && over !== revealed.digit && coveredAsked !== typed.join("")) {
        coveredAsked = typed.join("");
        refuse("data-covered", host.querySelector("[data-revealed]"));
        return;
      }
      coveredAsked = null;
      untouched = true;
      field().value = shown().join("");
      send(form());
      return;
    } else if (/^[0-9]$/.test(key)) {
      if (digits.indexOf(key) < 0) { refuse("data-range"); return; }
      // A note is said as its key then reads ("3: ruled out here"; a review heard nothing), and a note taken back
      // as the digit alone.
      if (notesOn) {
        var noted = host.querySelector('[data-keypad] button[data-key="' + key + '"]');
        heard = toggleNote(key) ? (noted ? notedLabel(noted) : key) : notesWords("data-ear-removed", key);
        notesHelpSeen();
        // …and shown, for a moment, where the help was: a review took a note, saw a faint digit in a corner, and
        // thought the key had failed ("ruled out in place 3" was only heard).
        var noteLine = host.querySelector("[data-message]");
        if (noteLine) {
          var said = document.createElement("p");
          said.setAttribute("data-flash", "note");
          said.textContent = heard;
          flash(noteLine, said);
          placeMessage();
        }
      }
      // The revealed digit typed where it stands is typed through: a player typing the whole code, the revealed digit
      // in its place, gets that code (a review typed 2 2 1 2 around a revealed 2 in place 2 and got 2 2 2 1).
      else if (revealed && key === revealed.digit && typed.indexOf("") === revealed.position
          && typed.slice(revealed.position + 1).join("") === "") {
        typed[revealed.position] = key;
        heard = typed.indexOf("") < 0 ? key + ". " + rowWords() : key;
      }
      // A full row says how to go on (a review's Enter on a focused key typed into a full row, and nothing happened).
      // A revealed digit stays: a whole code typed around it is refused at its last digit, saying why (a review typed
      // four digits, the last pushed the reveal out, and the guess it had paid a hint for was wasted).
      else if (nextSlot() < 0 && revealed && typed[revealed.position] === "") {
        refuse("data-full", host.querySelector("[data-revealed]"));
        aroundReveal = window.performance.now();
        return;
      }
      // A refused row is done with: the next digit starts the row afresh (a review tapped digits into a refused
      // 7777 and nothing happened until it had deleted all four).
      else if (nextSlot() < 0 && wasRefused) {
        typed = typed.map(function () { return ""; });
        typed[nextSlot()] = key;
        heard = key;
      }
      else if (nextSlot() < 0) { refuse("data-full"); return; }
      else {
        typed[nextSlot()] = key;
        // The digit, and once the row is full the whole row, so it can be checked before Enter.
        heard = nextSlot() < 0 ? key + ". " + rowWords() : key;
      }
    }
    showTyped();
    // The row being typed comes into sight (a low-vision review at 400 % typed a guess it could not see).
    inSight(host.querySelector("[data-current-row]"));
    say(heard);
  }

  // The row in words: "Your guess: 1, 2, blank, blank" (the sentence and the word for an empty cell from the page).
  function earText(attribute, slot, value) {
    var row = host.querySelector("[data-current-row]");
    var sentence = row ? row.getAttribute(attribute) || "" : "";
    return sentence.replace(slot, value);
  }
  function rowWords() {
    var row = host.querySelector("[data-current-row]");
    if (!row) return "";
    var blank = row.getAttribute("data-ear-blank") || "-";
    var parts = shown().map(function (digit) { return digit === "" ? blank : digit; });
    return earText("data-ear-row", "{row}", parts.join(row.getAttribute("data-ear-separator") || ", "));
  }

  function showTyped() {
    try {
      window.sessionStorage.setItem("arcade-mm-typed", JSON.stringify({ row: rowKey, cells: typed }));
    } catch (e) { /* private mode: kept in the page only */ }
    var cells = host.querySelectorAll("[data-current-row] [data-cell]");
    var at = cursor(), row = shown(), notes = loadNotes();
    // A digit the rows have ruled out everywhere (its key crossed out) needs no note any more: a review read notes
    // kept to row 10 for digits the keypad had long crossed out.
    var absent = {};
    Array.prototype.forEach.call(host.querySelectorAll("[data-keypad] [data-absent]"), function (key) {
      absent[key.getAttribute("data-key")] = true;
    });
    // The row's words carry its notes, each empty place's digits ruled out.
    var notesKey = host.querySelector("[data-keypad] [data-notes]");
    var separator = (host.querySelector("[data-current-row]") || board()).getAttribute("data-ear-separator") || ", ";
    var heardNotes = [];
    Array.prototype.forEach.call(cells, function (cell, i) {
      var digit = typed[i] || "";
      cell.textContent = row[i] || "";
      // An empty box shows the digits ruled out for its place, struck through (a review: the notes showed nowhere on
      // the board, only as a badge on a key, for one place at a time).
      var ruled = row[i] ? [] : (notes[String(i)] || []).filter(function (d) { return !absent[d]; }).sort();
      // Said with the row too (a blind review walked every place with the arrows to hear its notes).
      if (ruled.length && notesKey) {
        heardNotes.push((notesKey.getAttribute("data-ear-place") || "").replace("{place}", String(i + 1))
          .replace("{digits}", ruled.join(separator)));
      }
      var half = Math.ceil(ruled.length / 2);
      if (ruled.length > 4) ruled.splice(half, 0, "\n");
      if (ruled.length) {
        cell.setAttribute("data-ruled", ruled.join(""));
        cell.setAttribute("data-ruled-size", ruled.length > 4 ? "5" : ruled.length > 2 ? "3" : "1");
      } else {
        cell.removeAttribute("data-ruled");
        cell.removeAttribute("data-ruled-size");
      }
      cell.classList.toggle("is-filled", digit !== "");
      cell.classList.toggle("is-cursor", notesOn ? i === noteAt() : i === at && digit === "");
      cell.classList.toggle("is-revealed", !!revealed && revealed.position === i && row[i] === revealed.digit);
      // A digit typed over the revealed one keeps it in sight, small in the cell's corner (a review lost the reveal
      // under a digit it had typed; an earlier one saw typed digits replaced by it).
      var covered = !!revealed && revealed.position === i && digit !== "" && digit !== revealed.digit;
      cell.classList.toggle("is-covered", covered);
      if (covered) cell.setAttribute("data-reveal", revealed.digit);
      else cell.removeAttribute("data-reveal");
    });
    var words = host.querySelector("[data-current-words]");
    if (words) words.textContent = [rowWords()].concat(heardNotes).join(" ");
    var noted = loadNotes()[String(noteAt())] || [];
    Array.prototype.forEach.call(host.querySelectorAll("[data-keypad] button[data-key]"), function (button) {
      var digit = button.getAttribute("data-key");
      if (!/^[0-9]$/.test(digit)) return;
      var isNoted = noted.indexOf(digit) >= 0;
      button.classList.toggle("is-noted", isNoted);
      if (isNoted) button.setAttribute("aria-label", notedLabel(button));
      else if (button.hasAttribute("data-known-label")) button.setAttribute("aria-label", button.getAttribute("data-known-label"));
      else button.removeAttribute("aria-label");
    });
  }

  // The digits the rules use: the keypad's.
  function keypadDigits() {
    return Array.prototype.map.call(host.querySelectorAll("[data-keypad] button[data-key]"), function (button) {
      return button.getAttribute("data-key");
    });
  }

  // Notes on, the message line says what a tap does now, until they are off (a review: a key got a small × and
  // nothing said why). What the line said before comes back.
  var beforeNotes = null;
  // `pressed`: Notes was just pressed, so its help is wanted even over a hint; a board come back with notes on keeps
  // what it brought.
  function notesHelp(pressed) {
    var line = host.querySelector("[data-message]"), key = host.querySelector("[data-keypad] [data-notes]");
    if (!line || !key) return;
    var shown = line.querySelector("[data-notes-on]");
    // Hint's question, or its hint, keeps the line: the notes' help stood in for it, and Hint, pressed with notes on,
    // asked nothing and gave nothing (a blind review).
    if (notesOn && !shown && (pressed || !line.querySelector("[data-hint-ask], [data-hint]"))) {
      beforeNotes = Array.prototype.slice.call(line.childNodes);
      var p = document.createElement("p");
      p.setAttribute("data-notes-on", "");
      // A phone's words leave out the arrow keys it has none of (and fit the room over the title, see phoneMessage),
      // its keys held with large text too (a low-vision review read the arrow keys' eight lines there).
      var touch = !wideMessages() || (!!window.matchMedia && window.matchMedia("(pointer: coarse)").matches);
      p.textContent = (touch && key.getAttribute("data-touch-help")) || key.getAttribute("title") || "";
      line.replaceChildren(p);
    } else if (!notesOn && shown) {
      line.replaceChildren.apply(line, beforeNotes || []);
      beforeNotes = null;
    }
    placeMessage();
  }

  // Its use seen (a note taken), the help gives the rows their room back: it sat over rows 4 and 5 for as long as
  // notes were on (a review). Notes stay on; the key says so.
  function notesHelpSeen() {
    var line = host.querySelector("[data-message]"), shown = line && line.querySelector("[data-notes-on]");
    if (!shown) return;
    line.replaceChildren.apply(line, beforeNotes || []);
    beforeNotes = null;
    placeMessage();
  }

  // A refusal: the row shakes, and the message line says why for a while (and to a screen reader), then shows what
  // it showed before.
  var flashed = null;
  // `from`: an element whose own words for the refusal replace the message line's.
  function refuse(which, from) {
    shake();
    var line = host.querySelector("[data-message]");
    if (!line) return;
    var text = (from && from.getAttribute(which)) || line.getAttribute(which);
    var p = document.createElement("p");
    p.className = "is-error";
    p.setAttribute("data-flash", which.replace("data-", ""));
    p.textContent = text;
    flash(line, p);
    say(text);
  }

  // `p` in the message line for a moment (the design's toast, about 3 s: a review found "Not enough digits" and a tip
  // still there 15 s on) or until the next key, then what the line showed before. With large text or a zoomed page,
  // only the next key ends it: a low-vision review at 200 % and 400 % panned to "Not enough digits" and found it gone
  // after 2.5 s.
  var flashTimer = null;
  function flash(line, p) {
    if (flashed === null) flashed = Array.prototype.slice.call(line.childNodes);
    line.replaceChildren(p);
    clearTimeout(flashTimer);
    if (!window.Arcade.slowReading()) {
      flashTimer = setTimeout(function () { if (p.isConnected) { unflash(); placeMessage(); } }, 3000);
    }
  }
  function unflash() {
    clearTimeout(flashTimer);
    var line = host.querySelector("[data-message]");
    if (flashed && line) line.replaceChildren.apply(line, flashed);
    flashed = null;
  }

  // The keypad's marks are explained once, where they first appear, for a few seconds (a phone's first how-to leaves
  // them out to fit its screen: two reviews never learned what a green key meant). A screen reader hears each key's
  // own label instead.
  function explainKeys() {
    var line = host.querySelector("[data-message]"), own = board();
    if (!line || !line.getAttribute("data-keys-tip") || !own || own.getAttribute("data-outcome")) return;
    if (line.querySelector(":scope > p:not([data-rules])")) return;  // a hint or a refusal has the line
    // Each mark explained the first time it shows, and only it: "Green keys are in the code" over a keypad with no
    // green key read as wrong (a review).
    var marks = ["in", "out"].filter(function (mark) {
      return host.querySelector("[data-keypad] button.is-" + (mark === "in" ? "present" : "absent"));
    });
    try {
      marks = marks.filter(function (mark) {
        return !window.localStorage.getItem("arcade-mm-keys-tip-" + mark) && !window.localStorage.getItem("arcade-mm-keys-tip");
      });
      marks.forEach(function (mark) { window.localStorage.setItem("arcade-mm-keys-tip-" + mark, "1"); });
    } catch (e) { return; }
    if (!marks.length) return;
    var p = document.createElement("p");
    p.setAttribute("data-keys-tip", "");
    p.textContent = line.getAttribute(marks.length > 1 ? "data-keys-tip" : "data-keys-tip-" + marks[0]);
    flash(line, p);
    placeMessage();
  }

  function shake() {
    var row = host.querySelector("[data-current-row]");
    if (!row) return;
    row.classList.remove("is-refused");
    void row.offsetWidth;  // restart the animation
    row.classList.add("is-refused");
  }

  function send(target) {
    if (busy) return;
    busy = true;
    board().setAttribute("aria-busy", "true");
    // A row still in flight after a moment says so (a review on a slow line saw nothing happen for 1.5 s).
    setTimeout(function () { if (busy && board()) board().classList.add("is-sending"); }, 300);
    var body = new URLSearchParams(new FormData(target)).toString();
    // The codes-left switch says its new state (a blind review: it was switched, and the last row was said again).
    var spoken = target.hasAttribute("data-codes-left") ? "[data-codes-left-switch]" : null;
    window.Arcade.post(target.getAttribute("action"), body, { "X-Fragment": "board" }).then(function (response) {
      return response.text().then(function (html) { replace(html, response.status, false, spoken); });
    }).catch(function () {
      busy = false;
      target.submit();  // the network failed: fall back to a plain post
    });
  }

  /// Fetches this page's board again (after a cheat changed it), keeping the digits typed so far. Resolves with what
  /// a new reveal says (its place and digit), which the cheat's own announcement carries: said apart, the unlock, the
  /// board's last row and the reveal came as three announcements close together (a blind review).
  function refresh() {
    var before = host.querySelector("[data-revealed]");
    return fetch(window.location.pathname, { credentials: "same-origin", headers: { "X-Fragment": "board" } })
      .then(function (response) { return response.text(); })
      .then(function (html) {
        replace(html, 200, true);
        var mark = host.querySelector("[data-revealed]");
        return mark && !before ? mark.textContent.trim() : "";
      });
  }

  // `settled`: the same rows again (a cheat's refresh), whose pegs are not revealed a second time (a review saw the
  // last row's pegs vanish and come back at a Konami unlock).
  // `spoken`: the control whose `data-switched` is said instead of the board's announcement.
  function replace(html, status, settled, spoken) {
    busy = false;
    var template = document.createElement("template");
    template.innerHTML = html.trim();
    var fresh = template.content.querySelector("#board");
    if (!fresh) { window.location.reload(); return; }
    var wasOver = !!board().getAttribute("data-outcome");
    var wasGame = board().getAttribute("data-game");
    // The board's height, kept while the last row is revealed (a review: the empty rows and the keypad went at once
    // and the page jumped under the winning row); the results, when they open, cover the change.
    var ending = !wasOver && fresh.getAttribute("data-outcome") && window.HTMLDialogElement;
    var tall = ending ? board().offsetHeight : 0;
    var focusKey = focusedControl();
    // The switch chosen by keyboard stays in sight with the focus, its menu open again, its new state heard (a blind
    // review was moved to the board and had to go back through the menu to check it; a keyboard review, left on the
    // closed menu's button, could not see what it had switched). Escape closes the menu to its button.
    var menuButton = document.activeElement && document.activeElement.matches &&
      document.activeElement.matches(".mm-menu > summary");
    if (spoken && menuButton) focusKey = spoken;
    closeResults(false);
    flashed = null;
    // The board stays the same element, its attributes and contents renewed: focus on it stays put, so a screen
    // reader says the row's result alone, not the board's name on top of it (a review).
    var kept = board();
    // The keys and the message line stay, spent, until the results open (a review saw them vanish as the last row
    // landed, and the board sit over an empty page while it turned over).
    var spent = ending ? Array.prototype.slice.call(kept.querySelectorAll(":scope > .mm-message, :scope > .guess-form"))
      : [];
    // So do the rows left unplayed: the board keeps its shape until the card.
    var unplayed = ending ? Array.prototype.slice.call(kept.querySelectorAll("ol.board > li.slot:not(.slot-current)"))
      : [];
    // And the bar over the board (guesses left, wins, Hint): a review saw "Wins: 1" and Hint go while the last row's
    // pegs were still turning over, the ending told before it was shown.
    var oldBar = ending ? kept.querySelector(":scope > .mm-bar") : null;
    var played = kept.querySelectorAll("ol.board > li.row").length;
    Array.prototype.slice.call(kept.attributes).forEach(function (a) {
      if (!fresh.hasAttribute(a.name)) kept.removeAttribute(a.name);
    });
    Array.prototype.forEach.call(fresh.attributes, function (a) { kept.setAttribute(a.name, a.value); });
    kept.replaceChildren.apply(kept, Array.prototype.slice.call(fresh.childNodes));
    fresh = kept;
    // A new game starts at the top of the page, where its board and keys fit the screen (a review: New game, tapped
    // below a finished phone game, left the first row and the menu scrolled off).
    if (wasOver && fresh.getAttribute("data-game") !== wasGame && window.scrollY > 0) window.scrollTo(0, 0);
    // At the end of a game the keypad goes, but the cells keep their size: the board does not jump.
    setup(!!fresh.getAttribute("data-outcome") && !wasOver);
    var freshBar = oldBar && fresh.querySelector(":scope > .mm-bar");
    // The ending's bar once the row has turned over: a win's as its row jumps (a review's phone showed "4 guesses
    // left" and Hint beside the burst while the solved row bounced).
    function barNow() { if (oldBar && oldBar.isConnected) oldBar.replaceWith(freshBar); }
    if (freshBar && status === 200) {
      oldBar.inert = true;
      freshBar.replaceWith(oldBar);
      afterReveal(barNow, 0);
    }
    // A hint is said itself (the board's own announcement repeats the last row); any other answer says the row.
    var hint = fresh.querySelector("[data-message] [data-hint], [data-hint-ask]");
    // Hint's question first, where a hint would take a win out of the chart: its answer is the next thing to press.
    if (fresh.querySelector("[data-hint-ask]")) focusKey = "[data-hint-confirm]";
    // A hint just shown: focus on its "Type it in", the next thing reached for (a keyboard review found it three Tabs
    // away); digits typed there still go to the row, and its Enter types the hint in.
    else if (hint && !settled && focusKey === "" && hint.querySelector("[data-hint-type]")) {
      focusKey = "[data-message] [data-hint-type]";
    }
    // A refusal says itself: the board's announcement would repeat the last row as if it were scored.
    var refusal = status === 422 && fresh.querySelector("[data-error]");
    // Said once, by the board's live region (an alert inserted with its text in it is often not read at all).
    if (refusal) refusal.removeAttribute("role");
    // A cheat's refresh says nothing of its own: the rows are the same, and the cheat's announcement says what changed.
    var switched = spoken && fresh.querySelector(spoken);
    // A game just ended says only what its results card, read as it opens, does not (a blind review heard a win twice).
    var carded = fresh.getAttribute("data-outcome") && !wasOver && fresh.querySelector("[data-results]");
    var announced = fresh.getAttribute(carded ? "data-announce-before-results" : "data-announce") || "";
    if (switched) say(switched.getAttribute("data-switched"));
    else if (!settled) say(hint ? hint.getAttribute("data-hint-spoken") || hint.textContent.trim() : refusal ? refusal.textContent.trim() : announced);
    if (!hint && !refusal && !settled) explainKeys();
    // At a game's end the board holds the focus while the last row is revealed, until the results take it (it fell
    // to the page's body, so the next Tab began again at the skip link).
    var reopened = focusKey === spoken && spoken && fresh.querySelector(".mm-menu");
    if (reopened) reopened.open = true;
    if (!fresh.getAttribute("data-outcome")) refocus(focusKey);
    else if (!wasOver) refocus(focusKey === null ? null : "");
    // The row just scored and the one to type next stay in sight: on a short window (a page zoomed to 400 %) the
    // guess and its pegs were scrolled away, and a review could not see them.
    var scored = fresh.querySelector(".row.is-newest"), next = fresh.querySelector(".slot-current");
    // A hint, too (a review pressed Hint at 400 % and saw nothing: it was below the fold).
    [scored, next, hint].forEach(inSight);
    if (status === 422) shake();
    var newest = fresh.querySelector(".row.is-newest");
    // A row already on the board does not turn over again: a give-up's answer (a review saw the last row's pegs gone,
    // half drawn again beside the code turning over) or a cheat's refresh.
    var again = fresh.querySelectorAll("ol.board > li.row").length === played;
    if ((settled || again) && newest) newest.classList.add("is-settled");
    if (status === 200 && newest && !settled) {
      // Each peg ticks as it turns over, high for the right place, lower for a misplaced digit, a low soft one for
      // neither (a review heard sound only at a game's end). A win has its own.
      if (!newest.classList.contains("is-won")) {
        var tick = { red: [1175, 0.05, "triangle", 0.15], blue: [784, 0.05, "triangle", 0.15],
          gray: [262, 0.04, "sine", 0.15] };
        window.Arcade.sound(Array.prototype.map.call(newest.querySelectorAll(".pegs .peg"), function (peg) {
          return tick[(peg.className.match(/peg-(red|blue|gray)/) || [])[1] || "gray"];
        }));
      }
      revealing = true;
      afterReveal(function () {
        revealing = false;
        if (!waiting) return;
        waiting = false;
        press("Enter");
        // The keys typed after that Enter, held meanwhile, follow it: they were lost until the next row came, which
        // none would (a double Enter's second on the turning row, then the next guess typed: nothing happened).
        var held = early;
        early = [];
        held.forEach(function (key) { press(key); });
      }, 0);
    }
    var won = fresh.getAttribute("data-outcome") === "won" && !wasOver;
    // The status says the win once the row has turned over, not before (a review: "Cracked" while the tiles flipped).
    if (won) {
      fresh.classList.add("is-revealing");
      // Heard as the row jumps, or (without motion, nothing jumps) once it has turned.
      var cheered = false;
      var cheer = function () {
        if (!cheered) window.Arcade.sound("win");
        cheered = true;
      };
      afterReveal(function () {
        fresh.classList.remove("is-revealing");
        cheer();
      }, 0);
      // The burst goes up as the row jumps, and the card follows as it lands: a review's phone showed a word and
      // confetti over a settled board, then the card a second later. The card's title is the win's word.
      var hop = fresh.querySelector(".row.is-won");
      if (hop) {
        hop.addEventListener("animationstart", function jump(event) {
          if (event.animationName !== "win-bounce") return;
          hop.removeEventListener("animationstart", jump);
          fresh.classList.remove("is-revealing");
          barNow();
          // A record of the player's own (the card says which) is a bigger moment than an ordinary win.
          window.Arcade.burst(hop, fresh.querySelector("[data-record]") ? 72 : 36);
          cheer();
        });
      }
    }
    // A win's burst is seen before the results cover the board. Meanwhile they wait out of the page, where a review
    // saw them appear first, then again in the card.
    if (fresh.getAttribute("data-outcome") && !wasOver) {
      var inline = fresh.querySelector("[data-results]");
      if (inline && window.HTMLDialogElement) inline.hidden = true;
      var rows = fresh.querySelector("ol.board");
      unplayed.forEach(function (row) {
        row.classList.add("board-room", "is-spent");
        if (rows) rows.appendChild(row);
      });
      // A win's spent keys agree with it: the code's digits found, the rest out (a review saw two of the winning
      // code's digits still plain on the keypad under the solved row).
      var won = fresh.getAttribute("data-outcome") === "won" && fresh.querySelector(".row.is-won");
      var code = won ? won.getAttribute("data-guess") || "" : "";
      spent.forEach(function (part) {
        Array.prototype.forEach.call(code ? part.querySelectorAll("[data-keypad] button[data-key]") : [], function (key) {
          var digit = key.getAttribute("data-key");
          if (!/^[0-9]$/.test(digit)) return;
          key.classList.toggle("is-present", code.indexOf(digit) >= 0);
          key.classList.toggle("is-absent", code.indexOf(digit) < 0);
          key.classList.remove("is-noted");
        });
        part.classList.add("board-room", "is-spent");
        // The message line keeps its room but says nothing more: a hint beside a game given up, its "Type it in"
        // still there, read as still in play (two native readers).
        if (part.classList.contains("mm-message")) part.replaceChildren();
        part.setAttribute("inert", "");
        part.setAttribute("aria-hidden", "true");
        fresh.insertBefore(part, inline);
      });
      // The room the empty rows left, above the spent keys, so they stay where they were.
      if (tall > fresh.offsetHeight) {
        var spacer = document.createElement("div");
        spacer.className = "board-room";
        spacer.setAttribute("aria-hidden", "true");
        spacer.style.height = tall - fresh.offsetHeight + "px";
        fresh.insertBefore(spacer, spent.length ? spent[0] : inline);
      }
      // Without motion nothing turns over: the solved board stays a moment before the card (a review never saw it).
      // A win's burst plays out first (a review saw it fall behind the card's backdrop).
      var still = window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches;
      // Quickly, though: a review waited 2–3 s on a board with nothing left to do. A loss's code turns over on the
      // board first (a review: the loss was flat, the card came at once over the rows); a give-up's, asked for, is
      // not waited on (another review: seconds of a board with nothing to press).
      var lost = !!fresh.querySelector("[data-secret-row]") && !fresh.querySelector("[data-gave-up]");
      if (lost) afterReveal(function () { window.Arcade.sound("lost"); }, 0);
      afterReveal(openResults, still ? 1000 : won ? 100 : lost ? 500 : 120);
    }
    var typedEarly = early;
    early = [];
    if (!fresh.getAttribute("data-outcome") && !settled) typedEarly.forEach(function (key) { press(key); });
  }

  // Focus after a board action (issue 46): the new board replaces the control that had it, so it goes to the same
  // control in the new board (a keypad key), else to the board itself (named by its tries left, and where the
  // keys type and Enter sends the row); in view, never the page body.
  function focusedControl() {
    var active = document.activeElement;
    if (!active || active === document.body || active === board()) return "";
    if (!board().contains(active)) return active.closest && active.closest("dialog") ? "" : null;
    if (active.hasAttribute("data-key")) return '[data-keypad] button[data-key="' + active.getAttribute("data-key") + '"]';
    // After Hint (or anything else on the board) the player types next: the board, which the keys type into.
    return "";
  }
  function refocus(selector) {
    if (selector === null) return;
    var target = (selector && board().querySelector(selector)) || board();
    target.focus({ preventScroll: true });
    // A key is brought wholly into view; the board only when none of it shows (the page does not scroll itself).
    if (target === board()) {
      var box = target.getBoundingClientRect();
      if (box.bottom <= 0 || box.top >= window.innerHeight) target.scrollIntoView({ block: "nearest" });
    } else inSight(target);
  }
  // Scrolls the least that brings the element wholly into the window.
  function inSight(element) {
    if (!element) return;
    var box = element.getBoundingClientRect();
    // A keypad held at the screen's foot (a short window) covers what is under it: the row must clear it.
    var keys = host.querySelector("[data-keypad]"), foot = window.innerHeight;
    if (keys && !element.closest("[data-keypad]") && getComputedStyle(keys).position === "sticky") {
      foot = Math.min(foot, keys.getBoundingClientRect().top);
      // …and the message line they carry (see placeMessage).
      var line = host.querySelector("[data-message]");
      if (line && line.offsetHeight && !element.closest("[data-message]")) {
        foot = Math.min(foot, line.getBoundingClientRect().top);
      }
    }
    // Above the window (the page scrolled down past the game): the board comes back from its top where it fits with
    // the element, not the row pinned to the window's edge with the rows before it out of sight (a review).
    if (box.top < 0) {
      var top = board().getBoundingClientRect().top;
      if (board().contains(element) && box.bottom - top + 8 <= foot) window.scrollBy(0, top - 8);
      else element.scrollIntoView({ block: "nearest" });
    } else if (box.bottom > foot) window.scrollBy(0, Math.min(box.bottom - foot + 8, box.top));
  }

  // The results wait for the last row's pegs (staggered, or a fade when motion is reduced).
  function afterReveal(then, pause) {
    var pegs = host.querySelectorAll(".row.is-newest .peg, .row.is-newest .pegs, .row.is-won .cell, .secret-row .cell");
    var animations = [];
    Array.prototype.forEach.call(pegs, function (peg) {
      if (peg.getAnimations) animations = animations.concat(peg.getAnimations());
    });
    var done = animations.map(function (a) { return a.finished.catch(function () {}); });
    // Nor longer than the reveal can take: an animation held (a tab in the background, a paused timeline) left a won
    // board with no results and nothing to press (a keyboard review, until it reloaded).
    var late = new Promise(function (resolve) { setTimeout(resolve, 3000); });
    Promise.race([Promise.all(done), late]).then(function () { setTimeout(then, pause === undefined ? 250 : pause); });
  }

  // The board's spent parts, kept while its last row turns over, stay behind the card too (a review saw the board
  // collapse behind its backdrop); they go when the card does, or at once where no card opens.
  function clearRoom() {
    Array.prototype.forEach.call(host.querySelectorAll(".board-room"), function (room) { room.remove(); });
  }

  function openResults() {
    var result = host.querySelector("[data-results]");
    if (result) result.hidden = false;
    if (!result || results || !window.HTMLDialogElement) {
      clearRoom();
      var heading = host.querySelector(".result h2");
      if (heading) heading.focus({ preventScroll: true });
      return;
    }
    var returnTo = document.activeElement;
    var placeholder = document.createComment("results");
    result.parentNode.insertBefore(placeholder, result);
    var dialog = document.createElement("dialog");
    dialog.className = "results-dialog";
    dialog.setAttribute("aria-labelledby", "result-title");
    dialog.setAttribute("data-results-dialog", "");
    var close = document.createElement("button");
    close.type = "button";
    close.className = "button-quiet";
    close.setAttribute("data-close-results", "");
    // A cross, named for screen readers: the title keeps the room on a phone.
    close.textContent = "×";
    close.setAttribute("aria-label", result.getAttribute("data-close-label") || "×");
    close.addEventListener("click", function () { dialog.close(); });
    dialog.addEventListener("click", function (event) { if (window.Arcade.onBackdrop(dialog, event)) dialog.close(); });
    var top = document.createElement("div");
    top.className = "results-top";
    // Scrolled, the band says whose card it is, the outcome and the code (a review: an empty band sliced the text).
    var title = result.querySelector("h2"), code = result.querySelector("[data-secret]");
    if (title) {
      var said = title.cloneNode(true);
      Array.prototype.forEach.call(said.querySelectorAll(".visually-hidden"), function (part) { part.remove(); });
      var label = document.createElement("span");
      label.className = "results-top-title";
      label.setAttribute("aria-hidden", "true");
      label.textContent = said.textContent.trim() + (code ? " · " + code.getAttribute("data-secret") : "");
      top.appendChild(label);
    }
    top.appendChild(close);
    dialog.appendChild(top);
    dialog.appendChild(result);
    // Scrolled, the × has a band of its own across the card: over the card's buttons it was easy to tap for New game
    // (a low-vision review, large text on a phone).
    dialog.addEventListener("scroll", function () { dialog.classList.toggle("is-scrolled", dialog.scrollTop > 0); });
    dialog.addEventListener("close", function () {
      // Back in the page, where it is without a script; focus returns where it was.
      clearRoom();
      if (placeholder.parentNode) placeholder.parentNode.replaceChild(result, placeholder);
      dialog.remove();
      results = null;
      if (returnTo && returnTo.isConnected && returnTo !== document.body && returnTo.focus) {
        returnTo.focus({ preventScroll: true });
      } else {
        refocus("");
      }
    });
    document.body.appendChild(dialog);
    results = dialog;
    // The heading is the dialog's first focus (a blind review heard Close, then the heading, 6 ms apart).
    var heading = dialog.querySelector("h2");
    if (heading) heading.setAttribute("autofocus", "");
    dialog.showModal();
    if (heading) heading.focus({ preventScroll: true });
    // As it rises under a thumb still tapping, its buttons and its backdrop wait half a second.
    window.Arcade.settle(dialog, "a[href], button, summary", 500);
    place(dialog);
  }

  // The card keeps the solved rows in sight, the payoff (three reviews on a phone: it covered the whole board). Beside
  // the board on a wide window; narrower, it is a sheet at the window's foot, and the page scrolls the board's last row
  // up above it, the room it needs added below the page while the card is open.
  // The window where the card stands at the right (site.css says the same).
  var SIDEWAYS = "(max-width: 78.99rem) and (min-width: 36rem) and (max-height: 30rem) and (orientation: landscape)";
  function place(dialog) {
    if (window.matchMedia("(min-width: 79rem)").matches) {
      // Beside the board, below the Game menu's line wherever it is (a review: the daily's longer lead put the menu
      // under the card).
      var menu = host.querySelector(".mm-menu > summary");
      var below = menu ? Math.round(menu.getBoundingClientRect().bottom + 8) : 0;
      if (below > dialog.getBoundingClientRect().top && below < window.innerHeight / 2) {
        dialog.style.marginTop = below + "px";
        dialog.style.maxHeight = "calc(100dvh - " + (below + 16) + "px)";
      }
      return;
    }
    var rows = host.querySelectorAll(".board > .row, .board > .secret-row");
    if (!rows.length) return;
    // A phone held sideways: the card at the right, the board beside it, its played rows scrolled into sight.
    if (window.matchMedia(SIDEWAYS).matches) {
      var first = rows[0].getBoundingClientRect().top - 8, last = rows[rows.length - 1].getBoundingClientRect().bottom;
      window.scrollBy({ top: Math.min(first, Math.max(0, last + 8 - window.innerHeight)), behavior: "instant" });
      return;
    }
    // Measured by its height, not its box: the sheet is still rising.
    var over = rows[rows.length - 1].getBoundingClientRect().bottom + 8 - (window.innerHeight - dialog.offsetHeight);
    if (over <= 0) return;
    var was = window.scrollY;
    document.body.style.paddingBottom = dialog.offsetHeight + "px";
    var still = window.matchMedia("(prefers-reduced-motion: reduce)").matches;
    window.scrollBy({ top: over, behavior: still ? "auto" : "smooth" });
    // Closed, the board goes back where it was.
    function back() { window.scrollTo({ top: was, behavior: "instant" }); }
    dialog.addEventListener("close", function () {
      document.body.style.paddingBottom = "";
      // Again a frame later: closed at once, the board's own scroll up may not have stopped yet.
      back();
      window.requestAnimationFrame(back);
    });
  }

  function closeResults() {
    if (results) results.close();
  }

  // A live countdown to the next daily code (the server wrote the first value).
  var ticking = null;
  function countdown() {
    clearInterval(ticking);
    var clock = document.querySelector("[data-next-daily]");
    if (!clock) return;
    var end = Date.now() + parseInt(clock.getAttribute("data-next-daily"), 10) * 1000;
    var text = clock.textContent;
    function two(n) { return (n < 10 ? "0" : "") + n; }
    function tick() {
      var s = Math.max(0, Math.round((end - Date.now()) / 1000));
      clock.textContent = text.replace(/\d\d:\d\d:\d\d/, two(Math.floor(s / 3600)) + ":" + two(Math.floor(s / 60) % 60) +
        ":" + two(s % 60));
      if (s === 0) clearInterval(ticking);
    }
    tick();
    ticking = setInterval(tick, 1000);
  }

  function shareSetup() {
    var share = host.querySelector("[data-share]");
    var button = host.querySelector("[data-share-button]");
    var copy = host.querySelector("[data-copy-share]");
    if (!share) return;
    // "Copied", on the button and said by the card's own status line (a blind review heard nothing).
    var said = host.querySelector("[data-share-said]");
    // What was shared shows under the buttons, once shared: "Copied" alone left a review pasting blind.
    function toClipboard(which) {
      window.Arcade.copyFrom(which, share.textContent, said);
      shown(which);
    }
    // The text comes into sight, and the button pressed stays there, focused, saying "Copied" (a low-vision review at
    // 400 %: scrolled to the text, the button went above the card's band).
    function shown(pressed) {
      share.classList.add("is-shown");
      share.scrollIntoView({ block: "nearest" });
      pressed.scrollIntoView({ block: "nearest" });
    }
    if (button) {
      button.hidden = false;
      button.addEventListener("click", function () {
        // The device's share sheet where there is one (a phone); the clipboard otherwise, saying "Copied".
        if (navigator.share) {
          navigator.share({ text: share.textContent }).then(function () { shown(button); }, function () {});
        }
        else toClipboard(button);
      });
    }
    if (copy && navigator.share) {
      copy.hidden = false;
      copy.addEventListener("click", function () { toClipboard(copy); });
    }
  }

  // The foot of the game: its keypad, or its board when there is none.
  function lastBottom() {
    var last = host.querySelector("[data-keypad]:not([hidden])") || host.querySelector(".board");
    return last.getBoundingClientRect().bottom;
  }

  // Cells shrink until the board and the keypad fit the window (never under 24 px, never over 52).
  function fit() {
    var root = host;
    root.style.removeProperty("--cell");
    root.style.removeProperty("--row-gap");
    // Large text (a larger root size) means larger digits too: at 200 % on a phone they were fitted down to 24 px,
    // smaller than the words around them (a low-vision review); the page scrolls instead.
    var text = parseFloat(getComputedStyle(document.documentElement).fontSize) || 16;
    var start = Math.max(window.innerWidth >= 600 ? 52 : 44, Math.round(text * 1.5));
    // A wide window never shrinks the cells below 36 px to fit its height: a page zoomed to 200 % (640×450) had
    // 24-px cells, no larger on screen than at 100 % (a low-vision review); it scrolls instead, the row being typed
    // kept in sight.
    // In a short window (large text, a page zoomed in) the board scrolls above the keys anyway: cells keep room for
    // digits of the body's size (a low-vision review read 11-px digits beside 16-px words at 400 %).
    var short = window.matchMedia && window.matchMedia("(max-height: 32em)").matches;
    // A laptop's window (1280×757) is not a zoomed page: there 30 px keeps the daily's keypad in sight (a review
    // found its last row of keys below the fold).
    var wide = window.innerWidth >= 1000 ? 30 : window.innerWidth >= 600 ? 36 : 24;
    // Text set larger than the usual 16 px makes the digits as much larger (a low-vision review at 200 %: the digits
    // grew from 30 to 33 px while every word doubled); the board scrolls above its keys then.
    var floor = Math.max(wide, Math.round(text * (text > 17 ? 2.4 : short ? 1.7 : 1.25)));
    start = Math.max(start, floor);
    var cell = start;
    function setCell(size) {
      cell = size;
      root.style.setProperty("--cell", cell + "px");
      // Cells under 36 px have no height for two rows of 16 px pegs: the pegs go in one line.
      root.classList.toggle("is-compact", cell < 36);
    }
    function tooWide() {
      var room = host.getBoundingClientRect().width, widest = 0;
      Array.prototype.forEach.call(host.querySelectorAll(".board > li"), function (li) {
        widest = Math.max(widest, li.getBoundingClientRect().width);
      });
      return widest - room;
    }
    // A row must fit the width (on a 320-pixel screen it ran past both edges and the page scrolled sideways): first,
    // so the height below is measured on a page that does not overflow (a phone's viewport grew with the rows, and
    // a language whose codes-left count stuck out a little more came out 2 px smaller).
    setCell(cell);
    for (var j = 0; j < 4; j++) {
      var over = tooWide();
      if (over <= 0) break;
      var narrower = Math.max(20, Math.floor(cell - over / length()) - 1);
      if (narrower >= cell) break;
      setCell(narrower);
    }
    // The estimate above undershoots (not every part of a row grows with its cells): back up while a row still fits.
    while (cell < start && tooWide() <= 0) {
      setCell(cell + 1);
      if (tooWide() > 0) { setCell(cell - 1); break; }
    }
    var rows = host.querySelectorAll(".board > li").length || 10;
    for (var i = 0; i < 4; i++) {
      var bottom = lastBottom() + window.scrollY;
      var below = bottom - (window.innerHeight - 6);
      if (below <= 0) break;
      var next = Math.max(Math.min(floor, cell), Math.floor(cell - below / (rows * 1.12)));
      if (next === cell) break;
      setCell(next);
    }
    // Room to spare below the keys (a phone's cells are as wide as its width allows): the rows of a game in play take
    // some of it, up to a third of a cell apart (a review: "boxes and rows nearly touch"). Not a finished game's, whose
    // results follow its rows.
    var spare = window.innerHeight - 6 - (lastBottom() + window.scrollY);
    if (spare > rows && !host.querySelector("#board[data-outcome]")) root.style.setProperty("--row-gap", Math.min(cell / 3, cell * 0.12 + spare / rows) + "px");
    holdKeys();
    // Still taller than the window at the smallest cells (a 360×560 phone): a vertical drag on the board scrolls the
    // page again, or its last keys were out of reach (a review); the codes' swipes are still seen as it scrolls.
    host.classList.toggle("board-scrolls", lastBottom() + window.scrollY > window.innerHeight - 5);
  }

  // In a short window the keypad is held at the screen's foot, the rows scrolling above it, only while it takes less
  // than half the screen: with text at 200 % in a window zoomed to 400 % it was the whole screen, the row
  // typed never in sight (a low-vision review).
  function holdKeys() {
    var pad = host.querySelector("[data-keypad]");
    host.classList.remove("keys-held");
    if (!pad || pad.hidden || !window.matchMedia || !window.matchMedia("(max-height: 32em)").matches) return;
    // A finished game types nothing: held, the keys covered its last row and its words (a low-vision review).
    if (board() && board().getAttribute("data-outcome")) return;
    var tall = pad.getBoundingClientRect().height;
    host.classList.toggle("keys-held", tall < window.innerHeight * 0.45);
    // Measured again as held (its padding and shadow band come with it): what rides on the keys sits clear of them.
    tall = pad.getBoundingClientRect().height;
    document.documentElement.style.setProperty("--keys-height", Math.ceil(tall) + "px");
  }

  function setup(keepSize) {
    var fresh = board();
    // With a script the keys type into the board: it is a Tab stop of its own, the first of the game (a review
    // counted 21 Tabs to the keypad's Enter on the daily, which has no Hint). Without one, the form's field is.
    fresh.tabIndex = 0;
    var rows = host.querySelectorAll(".board .row").length;
    // An unstarted board is game 0 for every new player: its row is told apart by the player's own form token, so the
    // digits typed there come back after a reload to that player only (a review typed three and reloaded: gone).
    var token = (document.querySelector('meta[name="csrf-token"]') || { content: "" }).content;
    var game = fresh.getAttribute("data-game");
    var key = game + ":" + rows + (game === "0" ? ":" + token : "");
    // An unstarted board (game 0) gets its game from whatever changes it first, a cheat's reveal too: the row being
    // typed is the same one, and its digits stay.
    if (/^0:0(:|$)/.test(rowKey) && rows === 0) rowKey = key;
    var revealMark = fresh.querySelector("[data-revealed]");
    revealed = null;
    if (revealMark) {
      var parts = revealMark.getAttribute("data-revealed").split(":");
      revealed = { position: parseInt(parts[0], 10) - 1, digit: parts[1] };
    }
    if (key !== rowKey) {
      // A new row (or a refused guess the server handed back): start from what the field holds.
      rowKey = key;
      var value = field() ? field().value.replace(/[^0-9]/g, "").slice(0, length()) : "";
      // Else the digits this tab typed into this row before a reload, each in its cell (a review's half-typed guess
      // was lost to one, while the cheat's revealed digit stayed).
      var kept = null;
      try { kept = JSON.parse(window.sessionStorage.getItem("arcade-mm-typed") || "null"); } catch (e) { kept = null; }
      var cells = !value && kept && kept.row === key && Array.isArray(kept.cells) ? kept.cells : null;
      typed = [];
      notePlace = null;
      for (var i = 0; i < length(); i++) {
        var digit = cells ? String(cells[i] || "") : value.charAt(i);
        typed.push(/^[0-9]$/.test(digit) ? digit : "");
      }
    }
    // The row being typed keeps the digits typed, where they were typed: a reveal takes its cell only where it is
    // empty (reviews: overwritten, then pushed along, the guess changed under the player), and says its place and digit
    // beside the board; the next rows start with it.
    var keypad = host.querySelector("[data-keypad]");
    if (keypad) {
      keypad.hidden = false;
      var input = field();
      if (input) input.setAttribute("inputmode", "none");
      // A key pressed with a mouse or a finger takes no focus, so Enter on the keyboard still sends the row.
      keypad.addEventListener("mousedown", function (event) {
        if (!event.target.closest("button")) return;
        event.preventDefault();
        // …and where focus was elsewhere (a setting), the board takes it, so the next keys type into the row: a
        // review's digits went into the Theme select, and Enter opened it.
        var active = document.activeElement;
        if (active && active !== document.body && !host.contains(active)) board().focus({ preventScroll: true });
      });
      keypad.addEventListener("click", function (event) {
        var notes = event.target.closest("button[data-notes]");
        if (notes) {
          notesOn = !notesOn;
          if (!notesOn) notePlace = null;
          // A note's words, still shown (large text keeps them until a key), go with the notes.
          if (host.querySelector("[data-message] [data-flash='note']")) unflash();
          notes.setAttribute("aria-pressed", String(notesOn));
          // The board says so too (a review: only the key changed, and digits "typed" were notes).
          board().classList.toggle("is-noting", notesOn);
          notesHelp(true);
          showTyped();
          // …and to the ear: where notes go and how to move them (a blind review never heard the place).
          say(notesWords(notesOn ? "data-ear-on" : "data-ear-off"));
          return;
        }
        var button = event.target.closest("button[data-key]");
        if (button) press(button.getAttribute("data-key"), true);
      });
      var toggle = keypad.querySelector("[data-notes]");
      if (toggle) toggle.setAttribute("aria-pressed", String(notesOn));
      notesHelp();
      hintButton();
    }
    shareSetup();
    countdown();
    showTyped();
    var forms = host.querySelectorAll("[data-mastermind-form], [data-board-action]");
    Array.prototype.forEach.call(forms, function (each) {
      each.addEventListener("submit", function (event) {
        event.preventDefault();
        if (each.hasAttribute("data-mastermind-form")) field().value = shown().join("");
        send(each);
      });
    });
    // The game menu closes once an item is chosen (the item's dialog or page would otherwise leave it open).
    // Focus then goes back to the board, so Enter sends the row again; chosen by keyboard (a click without a pointer's
    // count), to the menu's button, where a dialog the item opens gives it back too (a review: Escape on How to play
    // landed on the board, away from the menu).
    var menu = fresh.querySelector(".mm-menu");
    if (menu) {
      menu.addEventListener("click", function (event) {
        if (event.target.closest("li a, li button")) closeMenu(menu, event.detail === 0);
      });
      // A refusal is about the row it refused: it goes as the player turns to the menu (a review still had "You
      // already tried this guess" beside the board behind Give up's question).
      menu.addEventListener("toggle", function () {
        var refused = menu.open && host.querySelector("[data-message] > p[data-error]");
        if (refused) refused.hidden = true;
        // Held to the button's right edge, the list ran off the screen's left edge when large text put the button
        // mid-line (a low-vision review read "tistics", "w to play"): it moves right until it is whole.
        var list = menu.querySelector("ul");
        if (!menu.open || !list) return;
        list.style.right = "";
        var left = list.getBoundingClientRect().left;
        if (left < 8) list.style.right = Math.round(left - 8) + "px";
      });
    }
    if (!keepSize) fit();
    else holdKeys();
    placeMessage();
  }

  // Give up asks in place, over the board (a review: its own page took the player away from the game); "Keep
  // playing" and Escape close it. Without a script, or when the question cannot be fetched, the link's page asks.
  host.addEventListener("click", function (event) {
    var link = event.target.closest && event.target.closest("a[data-giveup-link]");
    if (!link || !window.Arcade.dialog || event.ctrlKey || event.metaKey || event.shiftKey) return;
    event.preventDefault();
    var href = link.getAttribute("href");
    window.Arcade.get(href).then(function (r) { return r.text(); }).then(function (html) {
      var ask = new DOMParser().parseFromString(html, "text/html").querySelector("[data-giveup]");
      if (!ask) { window.location.href = href; return; }
      // Chosen by keyboard from the menu, the dialog gives focus back to the menu's button; else to the board.
      var byKeyboard = event.detail === 0;
      var dialog = window.Arcade.dialog(document.importNode(ask, true), null);
      dialog.setAttribute("data-giveup-dialog", "");
      var keep = dialog.querySelector("[data-keep-playing]");
      if (keep) keep.addEventListener("click", function (e) { e.preventDefault(); dialog.close(); });
      // Giving up updates the board in place, and its results open as the card every ending shows.
      var confirm = dialog.querySelector("form");
      if (confirm) confirm.addEventListener("submit", function (e) {
        e.preventDefault();
        dialog.close();
        send(confirm);
      });
      if (!byKeyboard) dialog.addEventListener("close", function () { refocus(""); });
    }).catch(function () { window.location.href = href; });
  });

  // The control a pointer last pressed, until the keyboard moves focus (Tab): how the Game button got its focus.
  var clicked = null;
  document.addEventListener("pointerdown", function (event) {
    clicked = event.target.closest ? event.target.closest("summary, button, a") : null;
  }, true);
  document.addEventListener("keydown", function (event) { if (event.key === "Tab") clicked = null; }, true);

  // Escape on a menu a keyboard opened gives focus back to its button, as a menu button does (a review), where Enter
  // opens it again; on a menu a click opened, to the board, where Enter sends the row (issue 40), as an item chosen
  // or a click elsewhere does.
  function closeMenu(menu, toButton) {
    menu.open = false;
    (toButton ? menu.querySelector("summary") : board()).focus({ preventScroll: true });
  }
  // Focus leaving an open menu by Tab closes it, as a click outside does (a review: it stayed open over the row).
  host.addEventListener("focusout", function (event) {
    var menu = event.target.closest && event.target.closest(".mm-menu[open]");
    if (menu && event.relatedTarget && !menu.contains(event.relatedTarget)) menu.open = false;
  });
  // A click outside an open menu closes it too.
  document.addEventListener("click", function (event) {
    var menu = host.querySelector(".mm-menu[open]");
    if (menu && !menu.contains(event.target)) closeMenu(menu);
  });

  // On a wider screen a hint or an error lies over the peg legend until the next key (see press), and the legend
  // shows again (Hint shows the same hint again); none goes on a timer (a low-vision review lost Hint's question, its
  // button focused, after 4 s). A phone keeps its message in the line kept for it.
  // With room beside the board, a message stands beside the row being typed (two reviews: by the board's top it was
  // far from where the player looked, and went unseen); CSS uses these only on such a window.
  function placeMessage() {
    var own = board(), row = own && own.querySelector(".slot-current");
    if (!row) return;
    phoneMessage(own);
    // With the keys held at the screen's foot, the message line rides on them (see the CSS): as a toast under the row
    // being typed it lay over the keys (a low-vision review could not reach 0 to 5, nor Enter), above that row over the
    // row just scored (another, at 200 %). The row being typed is scrolled clear of both.
    if (host.classList.contains("keys-held")) {
      var line = own.querySelector("[data-message]"), most = window.innerHeight * 0.4;
      // Taller than two fifths of the window it would hide the rows above the keys (a low-vision review's hint, 510
      // pixels at text 200 %): it says less, smaller, as a phone's does; still too tall, it scrolls in its own box.
      own.classList.remove("message-scrolls");
      var steps = ["is-terse", "is-small", "message-scrolls"];
      for (var i = 0; line && line.offsetHeight > most && i < steps.length; i++) own.classList.add(steps[i]);
      document.documentElement.style.setProperty("--message-height", (line ? line.offsetHeight : 0) + "px");
      inSight(row);
      return;
    }
    var at = own.getBoundingClientRect(), box = row.getBoundingClientRect();
    own.style.setProperty("--message-top", Math.round(box.top - at.top) + "px");
    own.style.setProperty("--message-left", Math.round(box.right - at.left + 12) + "px");
    // Without that room, under the row being typed, over rows not yet played (over the peg legend it hid what the
    // pegs mean, a low-vision review at 200 %); over the row above when it is the last.
    var last = !(row.nextElementSibling && row.nextElementSibling.classList.contains("slot"));
    own.classList.toggle("message-above", last);
    own.style.setProperty("--message-below", Math.round((last ? box.top : box.bottom) - at.top) + "px");
  }
  // A phone keeps its message in the line kept for it at the board's foot. One longer than that line (a hint and why,
  // what Notes do) grew upwards over rows 9 and 10, the rows typed last (two reviews): it lies just under the row
  // being typed, over rows not yet played, where the player is looking; over the title and the peg legend only when
  // those rows have no room (a later review: there it hid the legend and read as the header jumping); else as before.
  // Where neither place has room, a hint leaves out why it is offered and what it costs (said beside it whenever it
  // fits; the cost by the results too), then the words get smaller, rather than cover a row.
  function phoneMessage(own) {
    var steps = ["is-terse", "is-small"];
    own.classList.remove("message-over-title", "message-under-row", "is-terse", "is-small");
    for (var i = 0; !fitPhoneMessage(own) && i < steps.length; i++) own.classList.add(steps[i]);
  }
  function fitPhoneMessage(own) {
    var line = own.querySelector("[data-message]"), title = document.querySelector("main > h1");
    var legend = document.querySelector("[data-legend]");
    if (wideMessages() || !line || !title || !legend || !legend.offsetHeight) return true;
    var shown = Array.prototype.filter.call(line.children, function (p) { return !p.hidden && p.offsetHeight; })[0];
    if (!shown || shown.offsetHeight <= line.offsetHeight + 1) return true;
    var at = own.getBoundingClientRect(), row = own.querySelector(".slot-current");
    if (row) {
      var below = row.getBoundingClientRect().bottom + 4;
      if (line.getBoundingClientRect().top - below >= shown.scrollHeight) {
        own.style.setProperty("--under-row", Math.round(below - at.top) + "px");
        own.classList.add("message-under-row");
        return true;
      }
    }
    var top = title.getBoundingClientRect().top;
    var room = legend.getBoundingClientRect().bottom - top;
    if (shown.scrollHeight > room) return false;
    own.style.setProperty("--title-top", Math.round(top - at.top) + "px");
    own.style.setProperty("--title-room", Math.round(room) + "px");
    own.classList.add("message-over-title");
    return true;
  }
  // A short window's held keys make the board scroll: its messages are toasts by the row too (see the CSS).
  function wideMessages() {
    return host.classList.contains("keys-held") ||
      (!!window.matchMedia && window.matchMedia("(min-width: 30.01rem)").matches);
  }

  // Digits, Backspace, Delete and Enter work from anywhere on the page (or only from within the game, with single-key
  // shortcuts off); Enter sends the row wherever focus is in the game (the menu's button too), except on a key of the
  // keypad, which it presses as Space does, on another button or link of the game, and on an item of an open menu,
  // which it chooses. Escape closes the menu. Inside a field the browser's own typing applies, and nothing
  // happens under an open dialog.
  // "Not now" to Hint's question puts it away in place (without a script, the link loads the board again).
  host.addEventListener("click", function (event) {
    var cancel = event.target.closest && event.target.closest("[data-hint-cancel]");
    if (!cancel) return;
    event.preventDefault();
    cancel.closest("[data-hint-ask]").remove();
    placeMessage();
    // Back to Hint, which asked, as a dialog gives focus back to what opened it (a keyboard review: to the board).
    var opener = host.querySelector("form[action='/mastermind/hint'] button");
    (opener || board()).focus({ preventScroll: true });
  });

  // A tap on a box of the row being typed: notes on, it makes it the place notes go to; else a digit there is taken
  // out, and the next digit typed goes there (a review tapped a middle box to fix it and was told the row was full).
  host.addEventListener("click", function (event) {
    var cell = event.target.closest && event.target.closest("[data-current-row] [data-cell]");
    if (!cell || !form()) return;
    var place = Array.prototype.indexOf.call(host.querySelectorAll("[data-current-row] [data-cell]"), cell);
    if (notesOn) { moveNotes(0, place); return; }
    if (busy || waiting || typed[place] === "" || (revealed && revealed.position === place)) return;
    var heard = earText("data-ear-deleted", "{digit}", typed[place]);
    typed[place] = "";
    unflash();
    showTyped();
    say(heard);
  });

  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey) return;
    var target = event.target;
    if (target && (/^(INPUT|TEXTAREA|SELECT)$/.test(target.tagName) || target.isContentEditable)) return;
    var open = document.querySelector("dialog[open]");
    // The first visit's how-to gives way to play: a digit typed closes it and goes into the row (a review typed
    // behind it on a phone, and nothing happened).
    if (open && open.hasAttribute("data-tutorial-dialog") && /^[0-9]$/.test(event.key)) {
      open.close();
      open = null;
      target = document.activeElement;
    } else if (open && !open.hasAttribute("data-results-dialog")) return;
    if (shortcutsOff() && !(target && host.contains(target)) && !open) return;
    if (window.Arcade.elsewhere(target, host, open)) return;
    // Space on the board types nothing, and does not scroll the board away from the row being typed (a keyboard
    // review's Space slid the page 328 px down).
    if (event.key === " " && target === board()) {
      event.preventDefault();
      return;
    }
    // A finished game: N starts the next, as its New game does (a review found no key for it), from its results too.
    var over = board() && board().getAttribute("data-outcome");
    // The key, whatever the layout types on it (a Russian reader: N types «т» there, and nothing happened).
    if (over && (event.key === "n" || event.key === "N" || event.code === "KeyN") && !(open && shortcutsOff())) {
      var next = (open || host).querySelector("[data-new-game]");
      if (next && !event.repeat) {
        event.preventDefault();
        next.click();
      }
      return;
    }
    // Enter on the card's words (its heading has the focus as it opens) says how to go on, N for a new game, New game
    // in sight: a desktop review pressed Enter after a win and nothing happened. Not New game, nor its focus: a blind
    // review's Enters, pressed as on a row, went on to press it and threw the card away.
    if (open && over && event.key === "Enter" && !(target && target.closest && target.closest("a, button, summary"))) {
      event.preventDefault();
      if (!event.repeat) overNote(open);
      return;
    }
    if (open) return;
    var menu = host.querySelector(".mm-menu[open]");
    if (event.key === "Escape" && menu) {
      event.preventDefault();
      var button = menu.querySelector("summary");
      closeMenu(menu, clicked !== button);
      return;
    }
    // Escape answers Hint's question "Not now", as it closes a dialog (a keyboard review pressed it, and nothing).
    var asking = host.querySelector("[data-hint-ask] [data-hint-cancel]");
    if (event.key === "Escape" && asking) {
      event.preventDefault();
      asking.click();
      return;
    }
    // …and puts a hint shown aside, as its × does (a keyboard review: Escape left it open, as nothing else is).
    var away = host.querySelector("[data-message] > p[data-hint]:not([hidden]) .hint-away");
    if (event.key === "Escape" && away) {
      event.preventDefault();
      away.click();
      return;
    }
    // …and, nothing else open, turns notes off, as their key does (a keyboard review found that key 11 Tabs away).
    var notesKey = notesOn && host.querySelector("[data-keypad] button[data-notes]");
    if (event.key === "Escape" && notesKey) {
      event.preventDefault();
      notesKey.click();
      return;
    }
    // Notes on, the left and right arrows choose the place they go to, from within the game (elsewhere they scroll).
    if (notesOn && (event.key === "ArrowLeft" || event.key === "ArrowRight") && form() && host.contains(target) &&
        !(target.closest && target.closest(".mm-menu[open]"))) {
      event.preventDefault();
      moveNotes(event.key === "ArrowLeft" ? -1 : 1);
      return;
    }
    if (/^[0-9]$/.test(event.key) || event.key === "Backspace" || event.key === "Delete" || event.key === "Enter") {
      var within = function (selector) { return !!(target && target.closest && target.closest(selector)); };
      if (event.key === "Enter") {
        if (within("[data-keypad] button") || within(".mm-menu[open] li")) return;
        // The Game button reached by keyboard opens its menu with Enter, as a button does; focus a click left there
        // still sends the row (issue 40).
        if (within(".mm-menu > summary") && clicked !== target.closest(".mm-menu > summary")) return;
        // Any other button or link of the game a keyboard reached (Hint, New game) keeps its Enter (issue 46: Enter
        // on Hint sent the row); the menu's own button still sends the row, as the focus a click left there.
        if (host.contains(target) && /^(BUTTON|A)$/.test(target.tagName)) return;
        // …as does the results' "How each guess did" in the page (a blind review: its Enter said the game was over).
        if (within("[data-results] summary")) return;
        // A link or a button elsewhere on the page (the site's navigation) keeps its Enter.
        if (!host.contains(target) && /^(BUTTON|A|SUMMARY)$/.test(target.tagName)) return;
        if (menu) menu.open = false;
      }
      if (!form()) {
        // (Its default prevented: an Enter would press New game once it has the focus, and the finished board a
        // review meant to study was gone.)
        if (over && /^[0-9]$|^Enter$/.test(event.key)) {
          event.preventDefault();
          if (!event.repeat) overNote();
        }
        return;
      }
      event.preventDefault();
      if (event.repeat) return;
      // Typing from a control of the game (Hint, Game, a keypad key) moves focus to the board the keys type into, so
      // the Enter that follows sends the row instead of pressing that control (a review: Enter after digits typed on
      // Hint spent a hint).
      if (event.key !== "Enter" && host.contains(target) && target.closest && target.closest("button, summary, a")) {
        if (menu) closeMenu(menu);
        else board().focus({ preventScroll: true });
      }
      press(event.key);
    }
  });
  window.addEventListener("resize", function () { fit(); placeMessage(); });
  // A theme switched in place (the retro screen's cheat, the settings) changes the type and so the sizes: fitted
  // again, or a phone's last row of keys fell below the screen (a review, after the retro cheat).
  if (window.MutationObserver) {
    var themeWas = document.documentElement.className;
    new MutationObserver(function () {
      var now = document.documentElement.className;
      var theme = function (name) { return (name.match(/\btheme-[\w-]+/) || [""])[0]; };
      if (theme(now) === theme(themeWas)) return;
      themeWas = now;
      window.requestAnimationFrame(function () { fit(); placeMessage(); });
    }).observe(document.documentElement, { attributes: true, attributeFilter: ["class"] });
  }

  // Keys typed on a finished game did nothing, and a review thought the game broken (it had reloaded a won game and
  // typed ten rows): the results say the game is over and how to go on, with New game in sight. The note takes the
  // focus, not New game: a keyboard review's digits and Enter, typed as on any row, pressed it and lost the board.
  // `card`: the open results card, where the note is.
  function overNote(card) {
    var within = card || host;
    var note = within.querySelector("[data-over-note]"), next = within.querySelector("[data-results] [data-new-game]");
    if (!note || !next) return;
    note.hidden = false;
    say(note.textContent);
    note.setAttribute("tabindex", "-1");
    note.focus({ preventScroll: true });
    next.scrollIntoView({ block: "nearest" });
  }

  // `results` opens a finished game's card as its end does (the tests' screenshots and axe of the card use it).
  window.ArcadeMastermind = { refresh: refresh, results: openResults };
  setup();
  // A short window holds the keypad at its foot: the row to type starts in sight above it (a low-vision review met
  // the header and the legend, and the board a screen further down).
  inSight(host.querySelector(".slot-current"));
  // A finished game loaded again shows its results in the page: the card opens only as a game ends, never by
  // itself on a later visit (a review: it took the focus from the page's navigation 1.7 s after the load).
  // Nor does its winning row turn over again (a review caught it mid-jump and read it as broken), unless the page is
  // the answer to Give up's form, whose code turns over as it would have in place.
  // A game in play takes the focus as its page loads, where nothing else has it: the keys type into it, single-key
  // shortcuts off too (a keyboard review: on the daily, and on a page loaded again, focus stayed on the page, and with
  // shortcuts off the board was 8 Tabs away). A dialog opened over it gives the focus back to it.
  if (!board().getAttribute("data-outcome") && document.activeElement === document.body) {
    board().focus({ preventScroll: true });
  }
  if (board().getAttribute("data-outcome")) {
    board().setAttribute("data-results-inline", "");
    if (window.location.hash !== "#result") board().classList.add("is-settled");
    // A game over, loaded again (a finished daily, say), puts the focus on its outcome, where Share, New game and the
    // next daily follow (a keyboard review: the focus on the page's body, "See today's board" 12 Tabs away).
    var over = document.getElementById("result-title");
    if (over && window.location.hash !== "#result" && document.activeElement === document.body) {
      over.focus({ preventScroll: true });
      // …in sight (a keyboard review: the heading had the focus a pixel under the screen's foot).
      var box = over.getBoundingClientRect();
      if (box.top < 0 || box.bottom > window.innerHeight) over.scrollIntoView({ block: "nearest" });
    }
  }
  // Sent to the results (Give up's confirmation posts a form, and its answer comes back to #result): their heading
  // takes the focus, so the outcome is read (a review: focus was on nothing, and the code only seen). After the
  // load: the browser's own move to the #result fragment, which is not focusable, would take the focus away again.
  // The board comes first into view, the outcome under it, as after a give-up in the page (a review's confirmed
  // give-up landed on the heading cut off at the top, the rows scrolled away). The fragment goes from the address:
  // kept, it went on into the next game.
  if (window.location.hash === "#result") {
    window.addEventListener("load", function () {
      window.setTimeout(function () {
        if (window.history.replaceState) {
          window.history.replaceState(window.history.state, "", window.location.pathname + window.location.search);
        }
        var outcome = document.getElementById("result-title");
        if (!outcome || document.querySelector("dialog[open]")) return;
        var hidden = function () {
          var box = outcome.getBoundingClientRect();
          return box.top < 0 || box.bottom > window.innerHeight;
        };
        window.scrollTo(0, 0);
        if (hidden()) board().scrollIntoView({ block: "start" });
        if (hidden()) outcome.scrollIntoView({ block: "nearest" });
        outcome.focus({ preventScroll: true });
      }, 0);
    });
  }
})();
