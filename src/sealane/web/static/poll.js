// Tracking request page: while the request is pending, fetch the page again every few seconds
// and swap in the progress section, until the carrier has answered.
(function () {
  "use strict";
  var section = document.getElementById("request-status");
  if (!section || !section.hasAttribute("data-poll")) { return; }
  section.setAttribute("aria-live", "polite");
  var seconds = Number(section.getAttribute("data-poll")) || 5;
  function poll() {
    fetch(window.location.href, { credentials: "same-origin", headers: { "Accept": "text/html" } })
      .then(function (response) { return response.ok ? response.text() : null; })
      .then(function (html) {
        if (!html) { return; }
        var fresh = new DOMParser().parseFromString(html, "text/html").getElementById("request-status");
        if (!fresh) { return; }
        section.innerHTML = fresh.innerHTML;
        if (fresh.hasAttribute("data-poll")) { window.setTimeout(poll, seconds * 1000); }
        else { section.removeAttribute("data-poll"); }
      })
      .catch(function () { window.setTimeout(poll, seconds * 4000); });
  }
  window.setTimeout(poll, seconds * 1000);
})();
