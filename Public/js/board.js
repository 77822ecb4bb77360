// Today's board, live: each time a game of today's code ends (the server's event stream says so), the board part of
// the page is fetched again and swapped in. Without this script the page is complete as loaded.
(function () {
  "use strict";
  var live = document.querySelector("[data-board-live]");
  if (!live || !window.EventSource) return;
  var stream = new EventSource("/mastermind/daily/board/events");
  var pending = false;
  stream.addEventListener("board", function () {
    if (pending) return;
    pending = true;
    Arcade.get("/mastermind/daily/board?part=board").then(function (response) {
      return response.ok ? response.text() : null;
    }).then(function (html) {
      pending = false;
      if (!html) return;
      var page = new DOMParser().parseFromString(html, "text/html").querySelector("[data-board-live]");
      if (page) live.innerHTML = page.innerHTML;
      // Said once, briefly: the figures, not the whole board again.
      var figures = live.querySelector(".result-figures");
      var said = document.querySelector("[data-board-said]");
      if (figures && said) said.textContent = figures.textContent.replace(/\s+/g, " ").trim();
      document.documentElement.setAttribute("data-board-updated", String(Date.now()));
    }).catch(function () { pending = false; });
  });
})();
