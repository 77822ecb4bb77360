// Arcade's site script: loaded with `defer`, it only enhances. Every page
// works without it.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  // How the player last acted, a key or a pointer, kept from page to page: where a page puts the focus itself, a
  // keyboard player sees its ring at once (the browser's own :focus-visible waits for the next key after a load, and
  // a keyboard review saw no ring after every answer, Next and Got it). The board is ringed at its row instead.
  var input = null;
  try { input = window.sessionStorage.getItem("arcade.input"); } catch (e) { input = null; }
  function note(kind) {
    if (input === kind) return;
    input = kind;
    try { window.sessionStorage.setItem("arcade.input", kind); } catch (e) { /* private mode */ }
  }
  // A touch screen's own keyboard, typing a name into a field, is not a keyboard player's (a review's phone had a box
  // drawn round every lesson's end heading after its typed names); Tab there is.
  var coarse = window.matchMedia && window.matchMedia("(pointer: coarse)").matches;
  document.addEventListener("keydown", function (event) {
    var field = event.target && /^(INPUT|TEXTAREA)$/.test(event.target.tagName);
    if (!(coarse && field && event.key !== "Tab")) note("key");
  }, true);
  document.addEventListener("pointerdown", function () { note("pointer"); }, true);
  // The ring follows the focused element itself, not only focus events: a browser window without system focus (one
  // in the background) moves its focus without them and matches no :focus, and two keyboard reviews saw no ring on
  // any page they loaded.
  function ringFocus() {
    var active = document.activeElement;
    var keyed = input === "key" && active && active !== document.body && active.id !== "board" && active.setAttribute;
    Array.prototype.forEach.call(document.querySelectorAll("[data-key-focus]"), function (element) {
      if (!keyed || element !== active) element.removeAttribute("data-key-focus");
    });
    if (keyed && (!active.matches(":focus-visible") || active.getAttribute("tabindex") === "-1")) {
      active.setAttribute("data-key-focus", "");
    }
  }
  ["focusin", "focusout", "keyup", "pointerdown"].forEach(function (kind) {
    document.addEventListener(kind, function () { window.setTimeout(ringFocus, 0); }, true);
  });
  // Where a page's own script puts the focus as it loads (the games' scripts run after this one).
  document.addEventListener("DOMContentLoaded", ringFocus);
  window.addEventListener("load", ringFocus);

  var meta = document.querySelector('meta[name="csrf-token"]');
  var csrf = meta ? meta.getAttribute("content") : "";
  var audio = null;  // the one AudioContext, made at the first sound

  // The site's one way to ask the server from script (the game scripts use it too): same-origin, and a POST carries
  // the CSRF token in a header, as forms carry it in a field. `headers` adds to those.
  window.Arcade = {
    // How the player last acted, "key" or "pointer" (or null), here or on the page before (see above).
    lastInput: function () { return input; },
    // Whether a key pressed on `target` belongs to a control outside the game `game` (and the dialog `open`): a link
    // or a button of the header, say, whose keys are its own (a keyboard review's "1" on the header's Home link typed
    // into the row). A game's single-key shortcuts act from the page itself and from within the game.
    elsewhere: function (target, game, open) {
      return !!(target && target !== document.body && target.closest && !game.contains(target)
        && !(open && open.contains(target)) && target.closest("a[href], button, summary"));
    },
    // Large text, or a short window (a page zoomed to 200 % or 400 %): what is read then takes longer to find and
    // read, and what goes by itself waits twice as long (the cheats' toasts, a right answer's beat).
    slowReading: function () {
      return parseFloat(window.getComputedStyle(document.documentElement).fontSize) >= 24 || window.innerHeight < 600;
    },
    // Whether a click on the modal `dialog` fell on its backdrop, beside it: such a tap closes a card, as a sheet's
    // does (a review tapped the keys behind the how-to; another missed Wordle's one-tap dismissal of its results).
    onBackdrop: function (dialog, event) {
      if (event.target !== dialog) return false;
      var box = dialog.getBoundingClientRect();
      return event.clientX < box.left || event.clientX > box.right || event.clientY < box.top
        || event.clientY > box.bottom;
    },
    // An end's card or page takes no tap on `selector` within `area` in its first `ms`: a tap meant for what was
    // there a moment before lands on what just came (reviews: Play again as a timed minute ran out, Play in hard mode
    // as the win's card rose under a thumb). Keys are not held; while held, `area` carries data-settling.
    settle: function (area, selector, ms) {
      area.setAttribute("data-settling", "");
      window.setTimeout(function () { area.removeAttribute("data-settling"); }, ms);
      area.addEventListener("click", function (event) {
        if (area.hasAttribute("data-settling") && event.detail > 0 && event.target.closest
          && (event.target === area || event.target.closest(selector))) {
          event.preventDefault();
          event.stopPropagation();
        }
      }, true);
    },
    get: function (url) {
      return fetch(url, { credentials: "same-origin" });
    },
    post: function (url, body, headers) {
      var all = { "X-CSRF-Token": csrf, "Content-Type": "application/x-www-form-urlencoded" };
      for (var name in headers || {}) all[name] = headers[name];
      return fetch(url, { method: "POST", credentials: "same-origin", headers: all, body: body || "" });
    },
    // Text to the clipboard, as a promise. The clipboard API needs a secure page; over plain HTTP the text is
    // selected in a field of its own and copied the old way, the focus going back after (a review's next Tab began
    // at the skip link).
    copy: function (text) {
      function oldCopy() {
        var back = document.activeElement;
        var area = document.createElement("textarea");
        area.value = text;
        area.setAttribute("readonly", "");
        area.className = "visually-hidden";
        document.body.appendChild(area);
        area.select();
        var done = false;
        try { done = document.execCommand("copy"); } catch (e) { done = false; }
        area.remove();
        if (back && back.isConnected && back.focus) back.focus({ preventScroll: true });
        return done ? Promise.resolve() : Promise.reject();
      }
      return navigator.clipboard ? navigator.clipboard.writeText(text).catch(oldCopy) : oldCopy();
    },
    // `text` copied by `button`: "Copied" (its data-copied) on it for a moment, then its own word again (a review saw
    // "Copied" on its next visit), and said by `said`, a status line.
    copyFrom: function (button, text, said) {
      return window.Arcade.copy(text).then(function () {
        var word = button.getAttribute("data-word") || button.textContent;
        button.setAttribute("data-word", word);
        button.textContent = button.getAttribute("data-copied");
        setTimeout(function () { button.textContent = word; }, 2500);
        if (said) { said.textContent = ""; setTimeout(function () { said.textContent = button.textContent; }, 50); }
      }).catch(function () {});
    },
    // A short sound for what just happened ("right", "wrong", "win", "lost", "done"), made here rather than loaded:
    // a rising pair for right, a soft falling pair for a miss, an arpeggio for a win or a lesson's good end (a review:
    // "no sound", where Duolingo's feedback is heard as well as seen). Quiet, and none when the player turned sounds
    // off (the settings' third choice) or the browser will not play before a tap on this page.
    // `kind` may be a list of notes of its own ([hertz, seconds, wave, gap]): Mastermind's pegs, one tick each.
    // A phone that can also buzzes, briefly, with the same setting (a review: no haptics, where puzzle apps have them).
    sound: function (kind) {
      var notes = typeof kind === "string" ? {
        right: [[660, 0.09], [880, 0.16]], wrong: [[330, 0.12, "sine"], [247, 0.2, "sine"]],
        win: [[523, 0.09], [659, 0.09], [784, 0.09], [1047, 0.32]], done: [[523, 0.1], [784, 0.1], [1047, 0.3]],
        lost: [[392, 0.14, "sine"], [330, 0.14, "sine"], [262, 0.3, "sine"]]
      }[kind] : kind;
      if (!notes || document.documentElement.getAttribute("data-sound") === "off") return;
      var buzz = { right: [12], wrong: [30, 60, 30], win: [25, 50, 25, 50, 90], done: [25, 50, 60], lost: [90] }[kind];
      if (navigator.vibrate && (buzz || notes.length)) {
        try { navigator.vibrate(buzz || [8]); } catch (e) { /* none */ }
      }
      var Context = window.AudioContext || window.webkitAudioContext;
      if (!Context) return;
      try {
        audio = audio || new Context();
        if (audio.state === "suspended") audio.resume();
        var at = audio.currentTime + 0.02;
        notes.forEach(function (note) {
          var tone = audio.createOscillator(), level = audio.createGain();
          tone.type = note[2] || "triangle";
          tone.frequency.value = note[0];
          level.gain.setValueAtTime(0.0001, at);
          level.gain.exponentialRampToValueAtTime(0.08, at + 0.012);
          level.gain.exponentialRampToValueAtTime(0.0001, at + note[1]);
          tone.connect(level);
          level.connect(audio.destination);
          tone.start(at);
          tone.stop(at + note[1] + 0.02);
          at += note[3] || note[1] * 0.85;
        });
      } catch (e) { /* no sound, no harm */ }
    },
    // A burst of ribbons from the middle of `element`, a moment's decoration at a win or a lesson's good end; none when
    // motion is reduced. `pieces`: 36 unless told (a record's win throws twice as many).
    burst: function (element, pieces) {
      var count = pieces || 36;
      if (window.matchMedia && window.matchMedia("(prefers-reduced-motion: reduce)").matches) return;
      var box = element.getBoundingClientRect();
      var spray = document.createElement("div");
      spray.className = "win-burst";
      spray.setAttribute("aria-hidden", "true");
      spray.style.left = box.left + box.width / 2 + "px";
      spray.style.top = box.top + box.height / 2 + "px";
      // Thrown up and out across the window, then falling past the row (three reviews found a win flat beside a
      // smaller spray).
      var reach = Math.min(window.innerWidth, 900) / 2;
      for (var i = 0; i < count; i++) {
        var piece = document.createElement("i");
        var angle = (i / count) * 2 * Math.PI + Math.random() * 0.3;
        var distance = reach * (0.35 + Math.random() * 0.75);
        piece.style.setProperty("--dx", Math.round(Math.cos(angle) * distance) + "px");
        piece.style.setProperty("--dy", Math.round(Math.sin(angle) * distance * 0.7 - reach * 0.35) + "px");
        piece.style.setProperty("--fall", Math.round(window.innerHeight * (0.25 + Math.random() * 0.3)) + "px");
        piece.style.setProperty("--turn", Math.round(Math.random() * 900 - 450) + "deg");
        // In pixels: sized by the text, at 200 % the pieces were twice as large and hid the winning row (a low-vision
        // review could not read it through them).
        piece.style.setProperty("--size", Math.round(7 + Math.random() * 9) + "px");
        piece.style.animationDelay = Math.round(Math.random() * 120) + "ms";
        spray.appendChild(piece);
      }
      document.body.appendChild(spray);
      setTimeout(function () { spray.remove(); }, 1500);
    },
    // Pieces said through a live region, each a sentence of its own (run together, a title, a name and a face's words
    // were heard as one breathless sentence: a blind review).
    sentences: function (pieces) {
      // Japanese runs its sentences on, with no space between them (as the server's sentence gap).
      var ja = document.documentElement.lang === "ja";
      return pieces.map(function (piece) { return /[.!?。！？:：…]$/.test(piece) ? piece : piece + (ja ? "。" : "."); })
        .join(ja ? "" : " ");
    }
  };

  // The settings (theme, single-key shortcuts) apply as soon as they are chosen, without a reload (issue 46: an arrow
  // key through the themes reloaded the page each time, losing focus): the page takes the class and the attribute at
  // once, and the form is posted in the background to keep them (the redirect it answers is not followed). Without a
  // script, its Apply button posts the form.
  var themeSelect = document.querySelector("[data-theme-select]");
  var keysSelect = document.querySelector("[data-shortcuts-select]");
  var soundSelect = document.querySelector("[data-sound-select]");
  function applySettings() {
    var root = document.documentElement;
    if (themeSelect) {
      Array.prototype.slice.call(root.classList).forEach(function (name) {
        if (name.indexOf("theme-") === 0) root.classList.remove(name);
      });
      if (themeSelect.value) root.classList.add("theme-" + themeSelect.value);
    }
    if (keysSelect) {
      if (keysSelect.value === "off") root.setAttribute("data-shortcuts", "off");
      else root.removeAttribute("data-shortcuts");
    }
    if (soundSelect) {
      if (soundSelect.value === "off") root.setAttribute("data-sound", "off");
      else root.removeAttribute("data-sound");
    }
    var form = (themeSelect || keysSelect).form;
    var body = new URLSearchParams(new FormData(form)).toString();
    fetch(form.getAttribute("action"), {
      method: "POST", credentials: "same-origin", redirect: "manual", body: body,
      headers: { "X-CSRF-Token": csrf, "Content-Type": "application/x-www-form-urlencoded" }
    }).then(function () {
      var saved = (themeSelect ? themeSelect.value : "") + "/" + (keysSelect ? keysSelect.value : "")
        + "/" + (soundSelect ? soundSelect.value : "");
      root.setAttribute("data-settings-saved", saved);
    }).catch(function () { form.submit(); });
  }
  if (themeSelect) themeSelect.addEventListener("change", applySettings);
  if (keysSelect) keysSelect.addEventListener("change", applySettings);
  if (soundSelect) soundSelect.addEventListener("change", applySettings);

  // The menu is always open on a wide screen (CSS shows it without a script; this keeps its state true too).
  var menu = document.querySelector(".site-menu");
  if (menu && window.matchMedia) {
    var wide = window.matchMedia("(min-width: 48rem)");
    var follow = function () { menu.open = wide.matches; };
    follow();
    if (wide.addEventListener) wide.addEventListener("change", follow);
    // Its Settings link closes a narrow screen's menu on its way, and the choice it goes to takes the focus: left
    // open, the menu pushed a game's Enter key below a phone's screen (a review).
    var settingsLink = menu.querySelector("[data-settings-link]");
    var settingsTarget = document.getElementById("theme-select");
    if (settingsLink && settingsTarget) settingsLink.addEventListener("click", function (event) {
      event.preventDefault();
      if (!wide.matches) menu.open = false;
      settingsTarget.scrollIntoView({ block: "center" });
      settingsTarget.focus({ preventScroll: true });
    });
    // Escape closes the narrow screen's menu and gives its button the focus back (issue 46).
    menu.addEventListener("keydown", function (event) {
      if (event.key !== "Escape" || !menu.open || wide.matches) return;
      menu.open = false;
      menu.querySelector("summary").focus();
    });
  }

  // Menus (the Game menu, the language list, the phone's site menu) answer the arrow keys as menus do: Down and Up
  // move between their items, Home and End to the first and last (a keyboard review: only Tab moved). Handled here,
  // the arrows neither scroll the page nor count toward a cheat's code.
  document.addEventListener("keydown", function (event) {
    var keys = { ArrowDown: 1, ArrowUp: -1, Home: 0, End: 0 };
    if (!(event.key in keys) || event.ctrlKey || event.metaKey || event.altKey) return;
    var menu = event.target.closest && event.target.closest("details[open]");
    if (!menu || !menu.querySelector("summary + ul")) return;
    var items = Array.prototype.filter.call(menu.querySelectorAll("summary + ul a, summary + ul button"), function (item) {
      return item.getClientRects().length > 0;
    });
    if (!items.length) return;
    var at = items.indexOf(document.activeElement);
    var next = event.key === "Home" ? 0 : event.key === "End" ? items.length - 1
      : at < 0 ? (keys[event.key] > 0 ? 0 : items.length - 1) : (at + keys[event.key] + items.length) % items.length;
    event.preventDefault();
    event.stopImmediatePropagation();
    items[next].focus();
  }, true);

  // The wide screen's language button: Escape closes its list and gives it the focus back; a click elsewhere or
  // focus leaving closes it too, as a menu does. On a phone the list is always shown, in the menu.
  var picker = document.querySelector(".language-picker");
  if (picker) {
    var fold = function () { picker.open = false; };
    picker.addEventListener("keydown", function (event) {
      if (event.key !== "Escape" || !picker.open) return;
      event.stopPropagation();
      fold();
      picker.querySelector("summary").focus();
    });
    document.addEventListener("click", function (event) { if (!picker.contains(event.target)) fold(); });
    picker.addEventListener("focusout", function (event) {
      if (event.relatedTarget && !picker.contains(event.relatedTarget)) fold();
    });
  }

  // How to play, as a dialog: the tutorial card opens as one on a first visit (its Dismiss still posts), and each
  // game's "How to play" link opens its help page's text in one. Without a script both stay a card and a page.
  // A dialog whose content brings its own way out (Give up's "Keep playing") passes no close label: no Close button.
  function openDialog(content, closeLabel) {
    var dialog = document.createElement("dialog");
    dialog.className = "help-dialog";
    // A dialog's title is a level under the page's: a page's h1 becomes an h2 there, as the results' are, and a card's
    // landmark is no landmark inside it (a blind review met h1 in some dialogs, h2 in others, and a region in two).
    if (content.querySelector("h1")) {
      Array.prototype.forEach.call(content.querySelectorAll("h1, h2, h3, h4, h5"), function (from) {
        var to = document.createElement("h" + (Number(from.tagName.charAt(1)) + 1));
        Array.prototype.forEach.call(from.attributes, function (a) { to.setAttribute(a.name, a.value); });
        if (from.tagName === "H1") to.classList.add("dialog-title");
        while (from.firstChild) to.appendChild(from.firstChild);
        from.replaceWith(to);
      });
    }
    [content].concat(Array.prototype.slice.call(content.querySelectorAll("aside, section[aria-label], section[aria-labelledby]")))
      .forEach(function (part) {
        if (!/^(ASIDE|SECTION)$/.test(part.tagName)) return;
        part.setAttribute("role", "none");
        part.removeAttribute("aria-label");
        part.removeAttribute("aria-labelledby");
      });
    dialog.appendChild(content);
    if (closeLabel !== null) {
      var form = document.createElement("form");
      form.method = "dialog";
      var close = document.createElement("button");
      close.type = "submit";
      close.className = "button-quiet";
      close.textContent = closeLabel || "×";
      form.appendChild(close);
      dialog.appendChild(form);
      // …and a × held at its top corner, shown only where the window is too short for Close to be in sight with the
      // text (a low-vision review at 400 % found no way out of How to play: Close came after 550 px of it).
      var corner = document.createElement("button");
      corner.type = "button";
      corner.className = "button-quiet dialog-corner";
      corner.setAttribute("aria-label", closeLabel || "×");
      corner.textContent = "×";
      corner.addEventListener("click", function () { dialog.close(); });
      dialog.insertBefore(corner, dialog.firstChild);
    }
    // Closed, focus goes back where it was; if that is gone or hidden (a link in a menu that closed), to the game's
    // board, else to the page's heading: never to the body (a review's Escape left focus nowhere).
    var opener = document.activeElement;
    dialog.addEventListener("close", function () {
      dialog.remove();
      var back = opener && opener !== document.body && opener.isConnected && opener.getClientRects().length ? opener
        : document.getElementById("board") || document.querySelector("main h1");
      if (!back) return;
      if (!back.hasAttribute("tabindex") && !back.matches("a, button, input, select, textarea, summary")) {
        back.setAttribute("tabindex", "-1");
      }
      back.focus({ preventScroll: true });
    });
    dialog.addEventListener("click", function (event) {
      if (!window.Arcade.onBackdrop(dialog, event)) return;
      dialog.close();
      // The first visit's how-to gives way to play: the key or face tapped behind it is pressed too (a review's
      // first tap on a phone only closed it, and its guess went in one digit short).
      if (!dialog.hasAttribute("data-tutorial-dialog")) return;
      var under = document.elementFromPoint(event.clientX, event.clientY);
      var control = under && under.closest("button, summary, a");
      if (control && control.closest("main")) control.click();
    });
    document.body.appendChild(dialog);
    dialog.showModal();
    // It opens at its top, its title read first (the close button, focused by default, is at its bottom).
    var title = dialog.querySelector("h1, h2");
    if (title) {
      // Named by its heading (issue 46: the how-to dialogs had no name).
      if (!title.id) title.id = "dialog-title-" + document.querySelectorAll("dialog").length;
      dialog.setAttribute("aria-labelledby", title.id);
      title.setAttribute("tabindex", "-1");
      title.focus({ preventScroll: true });
    }
    dialog.scrollTop = 0;
    // Text below the fold says so, above Close (a review never saw the how-to's last example on a phone: nothing
    // showed that the dialog scrolled).
    var more = function () {
      dialog.classList.toggle("has-more", dialog.scrollTop + dialog.clientHeight < dialog.scrollHeight - 4);
    };
    more();
    if (window.requestAnimationFrame) window.requestAnimationFrame(more);
    dialog.addEventListener("scroll", more, { passive: true });
    return dialog;
  }
  if (window.HTMLDialogElement) {
    window.Arcade.dialog = openDialog;
    var tutorial = document.querySelector("[data-tutorial]");
    if (tutorial) {
      // Shown once: closing the dialog, however, dismisses the tutorial (the card's own form is not needed).
      var task = tutorial.getAttribute("data-once");
      var own = tutorial.querySelector("form");
      if (own) own.remove();
      tutorial.remove();
      var shown = openDialog(tutorial, tutorial.getAttribute("data-close-label"));
      // A game may close it when the player starts to play (mastermind.js: a digit typed goes into the row).
      shown.setAttribute("data-tutorial-dialog", "");
      shown.addEventListener("close", function () {
        window.Arcade.post("/once/dismiss", "task=" + encodeURIComponent(task) + "&back=/").then(function () {
          document.documentElement.setAttribute("data-tutorial-dismissed", task);
        });
      });
    }
    document.addEventListener("click", function (event) {
      var link = event.target.closest && event.target.closest("a[data-help-link]");
      if (!link || event.ctrlKey || event.metaKey || event.shiftKey) return;
      event.preventDefault();
      window.Arcade.get(link.getAttribute("href")).then(function (r) { return r.text(); }).then(function (html) {
        var article = new DOMParser().parseFromString(html, "text/html").querySelector("[data-help]");
        if (!article) { window.location.href = link.getAttribute("href"); return; }
        var back = article.querySelector("a.button");
        if (back) back.parentNode.remove();
        openDialog(document.importNode(article, true), link.getAttribute("data-close-label"));
      });
    });
  }

  // After a language switch the focus is where it was, on the language button (or, on a phone, the menu holding
  // it), which says the language now chosen; a game's page does not take it for its board (a keyboard review was
  // moved to the board and heard nothing of the change).
  if (/[?&]lang=/.test(window.location.search)) {
    var chooser = [".language-picker > summary", ".site-menu > summary"].map(function (selector) {
      return document.querySelector(selector);
    }).filter(function (element) { return element && element.getClientRects().length; })[0];
    if (chooser) {
      chooser.focus({ preventScroll: true });
      window.Arcade.languageSwitched = true;
    }
  }
  // After a language switch, keep the address free of ?lang=.
  if (window.history && window.history.replaceState && /[?&]lang=/.test(window.location.search)) {
    var url = new URL(window.location.href);
    url.searchParams.delete("lang");
    window.history.replaceState(null, "", url.pathname + url.search + url.hash);
  }

  // Live push: when hotfixes, rules or maintenance change, the server sends the interceptions document's new ETag.
  // A player page then asks for itself again (HEAD) and reloads only if it is now closed (maintenance) or needs an
  // update; a closed page reloads once it is open again. Admin pages are never closed, so they do not listen.
  if (window.EventSource && window.fetch && location.pathname.indexOf("/admin") !== 0) {
    var lang = document.documentElement.getAttribute("lang") || "";
    var closedNow = !!document.querySelector('[data-status="503"], [data-update="high"]');
    var known = null;
    var seen = function (etag) {
      if (!etag || known === null || known === etag) { known = etag || known; return; }
      known = etag;
      fetch(location.href, { method: "HEAD", credentials: "same-origin", cache: "no-store" }).then(function (answer) {
        var closed = answer.status === 503 || answer.headers.get("X-Arcade-Update") === "required";
        if (closed !== closedNow) { location.reload(); }
      }).catch(function () {});
    };
    var documentURL = "/api/interceptions?lang=" + encodeURIComponent(lang);
    var stream = new EventSource("/api/interceptions/events?lang=" + encodeURIComponent(lang));
    stream.addEventListener("etag", function (event) { seen(event.data); });
    // A stream the server refused (its budget for this address or the site is spent) is not retried by the
    // browser: the page then asks for the document's ETag now and then instead, and works on as before.
    stream.addEventListener("error", function () {
      if (stream.readyState !== 2 || stream.polling) return;
      document.documentElement.setAttribute("data-live", "polling");
      stream.polling = window.setInterval(function () {
        if (document.hidden) return;
        fetch(documentURL, { method: "HEAD", credentials: "same-origin", cache: "no-store" }).then(function (answer) {
          if (answer.ok) { seen(answer.headers.get("ETag")); }
        }).catch(function () {});
      }, 30000);
    });
    window.addEventListener("pagehide", function () {
      stream.close();
      if (stream.polling) window.clearInterval(stream.polling);
    });
  }

  // "Copy link" beside a read-only field (a challenge's link): "Copied" on the button, said by the status line after.
  Array.prototype.forEach.call(document.querySelectorAll("button[data-copy]"), function (button) {
    var field = document.getElementById(button.getAttribute("data-copy"));
    if (!field) return;
    var said = button.parentNode.querySelector("[data-copy-said]");
    button.hidden = false;
    button.addEventListener("click", function () { window.Arcade.copyFrom(button, field.value, said); });
  });

  // A name said aloud by the browser's own voice, where it has one (a review: "names like Nwosu and Adeyemi are never
  // spoken; Duolingo speaks"). The button shows only then; a second press says it again from the start.
  var sayers = document.querySelectorAll("button[data-say]");
  if (sayers.length && window.speechSynthesis && window.SpeechSynthesisUtterance) {
    var voiced = function () {
      if (!window.speechSynthesis.getVoices().length) return;
      Array.prototype.forEach.call(sayers, function (button) { button.hidden = false; });
    };
    voiced();
    window.speechSynthesis.addEventListener("voiceschanged", voiced);
    Array.prototype.forEach.call(sayers, function (button) {
      button.addEventListener("click", function () {
        var words = new window.SpeechSynthesisUtterance(button.getAttribute("data-say"));
        words.lang = document.documentElement.lang || "en";
        words.rate = 0.85;
        window.speechSynthesis.cancel();
        window.speechSynthesis.speak(words);
      });
    });
  }

  // A list filtered as its search field is typed in (People you've met): every word must be in an item's
  // data-search; the "nobody matches" line follows. Without a script the form asks the server.
  // How many it found is said (a blind review: the list narrowed in silence), in the language's plural form.
  Array.prototype.forEach.call(document.querySelectorAll("[data-filter-input]"), function (input) {
    var items = document.querySelectorAll(input.getAttribute("data-filter-input"));
    var none = document.querySelector("[data-no-match]");
    var found = document.querySelector("[data-found]");
    var plural = window.Intl && Intl.PluralRules ? new Intl.PluralRules(document.documentElement.lang || "en") : null;
    input.addEventListener("input", function () {
      var words = input.value.toLowerCase().split(/\s+/).filter(Boolean), shown = 0;
      Array.prototype.forEach.call(items, function (item) {
        var text = item.getAttribute("data-search") || "";
        item.hidden = !words.every(function (word) { return text.indexOf(word) >= 0; });
        if (!item.hidden) shown += 1;
      });
      if (none) none.hidden = shown > 0;
      if (found) {
        var form = found.getAttribute("data-found-" + (plural ? plural.select(shown) : "other")) || "";
        found.textContent = !words.length ? "" : shown ? form.replace("{n}", String(shown)) : none ? none.textContent : "";
      }
    });
  });
})();
