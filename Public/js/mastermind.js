// Mastermind, enhanced: an on-screen keypad and the physical keyboard fill
// the guess; guesses, hints and new games update the board in place from a
// server-rendered fragment. Without this script the forms work as they are.
(function () {
  "use strict";
  var host = document.getElementById("mastermind");
  if (!host || !window.Arcade || !window.fetch) return;
  var live = document.getElementById("mastermind-live");

  function field() { return host.querySelector("#guess"); }
  function form() { return host.querySelector("[data-mastermind-form]"); }

  function press(key) {
    var input = field();
    if (!input) return;
    var length = parseInt(form().getAttribute("data-length"), 10) || 4;
    if (key === "Backspace") {
      input.value = input.value.slice(0, -1);  // only the guess being typed, never a submitted one
    } else if (key === "Enter") {
      send(form());
    } else if (/^[0-9]$/.test(key) && input.value.length < length) {
      input.value += key;
    }
    showTyped();
  }

  // The row being typed shows the guess digit by digit, as a game board would.
  function showTyped() {
    var input = field();
    var cells = host.querySelectorAll("[data-current-row] [data-cell]");
    Array.prototype.forEach.call(cells, function (cell, i) {
      var digit = input ? (input.value.charAt(i) || "") : "";
      cell.textContent = digit;
      cell.classList.toggle("is-filled", digit !== "");
    });
  }

  function send(target) {
    var body = new URLSearchParams(new FormData(target)).toString();
    window.Arcade.post(target.getAttribute("action"), body, { "X-Fragment": "board" }).then(function (response) {
      return response.text();
    }).then(replace).catch(function () {
      target.submit();  // the network failed: fall back to a plain post
    });
  }

  function replace(html) {
    var template = document.createElement("template");
    template.innerHTML = html.trim();
    var fresh = template.content.querySelector("#board");
    if (!fresh) { window.location.reload(); return; }
    host.querySelector("#board").replaceWith(fresh);
    setup();
    if (live) live.textContent = fresh.getAttribute("data-announce") || "";
    var input = field();
    var heading = host.querySelector(".result h2");
    if (heading) heading.focus(); else if (input) input.focus({ preventScroll: true });
    reveal(heading);
  }

  // Keep the guess being typed in view above the keypad (the newest row sits just above it), or the result.
  function reveal(heading) {
    var target = heading || host.querySelector(".guess-form .form-row") || host.querySelector(".result");
    if (target && target.scrollIntoView) target.scrollIntoView({ block: "nearest" });
  }

  function setup() {
    var keypad = host.querySelector("[data-keypad]");
    document.body.classList.toggle("has-keypad", !!keypad);
    document.documentElement.classList.toggle("has-keypad-page", !!keypad);
    if (keypad) {
      keypad.hidden = false;
      // The on-screen keypad types: a phone's own keyboard would only cover the board.
      var input = field();
      if (input) input.setAttribute("inputmode", "none");
      keypad.addEventListener("click", function (event) {
        var button = event.target.closest("button[data-key]");
        if (button) press(button.getAttribute("data-key"));
      });
    }
    var copy = host.querySelector("[data-copy-share]");
    var share = host.querySelector("[data-share]");
    if (copy && share && navigator.clipboard) {
      copy.hidden = false;
      copy.addEventListener("click", function () {
        navigator.clipboard.writeText(share.textContent).then(function () {
          copy.textContent = copy.getAttribute("data-copied");
        });
      });
    }
    var typed = field();
    if (typed) typed.addEventListener("input", showTyped);
    showTyped();
    var forms = host.querySelectorAll("[data-mastermind-form], [data-board-action]");
    Array.prototype.forEach.call(forms, function (each) {
      each.addEventListener("submit", function (event) { event.preventDefault(); send(each); });
    });
  }

  // Digits, Backspace and Enter work from anywhere on the page; inside the
  // guess field the browser's own typing applies.
  document.addEventListener("keydown", function (event) {
    if (event.ctrlKey || event.metaKey || event.altKey || event.repeat) return;
    var target = event.target;
    if (target && (target.tagName === "INPUT" || target.tagName === "TEXTAREA" || target.isContentEditable)) return;
    if (/^[0-9]$/.test(event.key) || event.key === "Backspace" || event.key === "Enter") {
      if (event.key === "Enter" && target && (target.tagName === "BUTTON" || target.tagName === "A")) return;
      if (!field()) return;
      event.preventDefault();
      press(event.key);
    }
  });

  setup();
  reveal(null);
})();
