// Arcade's site script: loaded with `defer`, it only enhances. Every page
// works without it.
(function () {
  "use strict";
  document.documentElement.classList.add("js");

  var meta = document.querySelector('meta[name="csrf-token"]');
  var csrf = meta ? meta.getAttribute("content") : "";

  // A POST from script carries the CSRF token in a header, as forms carry it in a field.
  window.Arcade = {
    post: function (url, body) {
      return fetch(url, {
        method: "POST",
        credentials: "same-origin",
        headers: { "X-CSRF-Token": csrf, "Content-Type": "application/x-www-form-urlencoded" },
        body: body || ""
      });
    }
  };

  // After a language switch, keep the address free of ?lang=.
  if (window.history && window.history.replaceState && /[?&]lang=/.test(window.location.search)) {
    var url = new URL(window.location.href);
    url.searchParams.delete("lang");
    window.history.replaceState(null, "", url.pathname + url.search + url.hash);
  }
})();
