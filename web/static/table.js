// The table page: send moves without reloading, and redraw when the night changes (server-sent
// events, with polling as a fallback). No framework, nothing downloaded.
(function () {
  "use strict";
  var page = document.querySelector(".table-page");
  if (!page) return;
  var token = document.querySelector('meta[name="csrf-token"]').content;
  var parts = [document.getElementById("live-top"), document.getElementById("live-log")];
  var toast = document.getElementById("toast");
  var dot = document.getElementById("live-dot");
  var revision = page.dataset.revision;
  var pending = false;

  var say = window.fantanSay(toast);

  function busy() {
    // Do not redraw under someone's thumb: an open "Fix" form or a focused field inside the live part.
    var active = document.activeElement;
    return parts.some(function (part) {
      return part.querySelector("details[open]") || (active && part.contains(active) && active.tagName !== "BUTTON");
    });
  }

  function refresh() {
    if (busy()) { pending = true; return; }
    pending = false;
    fetch(page.dataset.liveUrl, { headers: { "Accept": "text/html" }, cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) {
        var fresh = document.createElement("div");
        fresh.innerHTML = html;
        parts.forEach(function (part) {
          var next = fresh.querySelector("#" + part.id);
          if (next) part.innerHTML = next.innerHTML;
        });
      })
      .catch(function () { /* the next update will try again */ });
  }
  document.addEventListener("focusout", function () { if (pending) setTimeout(refresh, 50); });
  document.addEventListener("toggle", function () { if (pending) setTimeout(refresh, 50); }, true);

  document.addEventListener("submit", function (ev) {
    var form = ev.target;
    if (!form.classList.contains("act")) return;
    ev.preventDefault();
    var data = new FormData(form, ev.submitter || undefined);
    fetch(form.action, { method: "POST", body: data, headers: { "Accept": "application/json", "X-CSRF-Token": token } })
      .then(function (r) { return r.json().then(function (body) { return { ok: r.ok, body: body }; }); })
      .then(function (res) {
        if (!res.ok) { say(res.body.error || "That did not work.", "error"); return; }
        if (res.body.flag) say(res.body.flag.explain, "warn");
        else if (res.body.undone) say("Line " + res.body.undone + " taken back.");
        else if (res.body.corrected) say(res.body.deleted ? "Line " + res.body.corrected + " deleted." : "Line " + res.body.corrected + " corrected.");
        else if (res.body.line) say("Line " + res.body.line + " recorded.");
        if (res.body.revision !== undefined) revision = String(res.body.revision);
        var details = form.closest("details"); if (details) details.open = false;
        if (form.id === "manual-form") { var card = document.getElementById("manual-card"); card.value = ""; }
        if (document.activeElement && document.activeElement.blur) document.activeElement.blur();
        refresh();
      })
      .catch(function () { say("The dashboard cannot be reached: nothing was sent.", "error"); });
  });

  // Live updates.
  function poll() {
    fetch(page.dataset.stateUrl, { headers: { "Accept": "application/json", "If-None-Match": '"n' + page.dataset.night + "-r" + revision + '"' } })
      .then(function (r) { if (r.status === 200) return r.json().then(function (s) { revision = String(s.revision); refresh(); }); })
      .catch(function () {})
      .then(function () { setTimeout(poll, 3000); });
  }
  if (window.EventSource) {
    var source = new EventSource(page.dataset.streamUrl + "?since=" + revision);
    source.onopen = function () { dot.classList.add("on"); };
    source.onerror = function () { dot.classList.remove("on"); };
    source.onmessage = function (msg) {
      var rev = JSON.parse(msg.data).revision;
      if (String(rev) !== String(revision)) { revision = String(rev); refresh(); }
    };
  } else {
    poll();
  }

  // Camera panel: the latest frame with the recognised cards outlined.
  var cam = document.getElementById("camera-panel");
  var img = document.getElementById("camera-img");
  var marks = document.getElementById("camera-marks");
  var note = document.getElementById("camera-note");
  function camera() {
    fetch(cam.dataset.api, { cache: "no-store" }).then(function (r) { return r.json(); }).then(function (c) {
      if (!c.has_frame) { cam.hidden = true; return; }
      cam.hidden = false;
      img.src = cam.dataset.frame + "?t=" + Date.now();
      marks.setAttribute("viewBox", "0 0 " + c.width + " " + c.height);
      var svg = "";
      c.cards.forEach(function (d) {
        var b = d.box;
        if (d.corners) svg += '<polygon points="' + d.corners.map(function (p) { return p.join(","); }).join(" ") + '"/>';
        else svg += '<rect x="' + b[0] + '" y="' + b[1] + '" width="' + (b[2] - b[0]) + '" height="' + (b[3] - b[1]) + '"/>';
        if (/^[0-9A-Za-z]{2,3}$/.test(d.card)) svg += '<text x="' + b[0] + '" y="' + (b[1] - 4) + '">' + d.card + "</text>";
      });
      marks.innerHTML = svg;
      note.textContent = c.note || "";
    }).catch(function () {}).then(function () { setTimeout(camera, 2000); });
  }
  camera();
})();
