// The banking game's page: tap a spot to bet, settle by number, count or camera, and redraw the
// changing part after every change. No framework, nothing downloaded.
(function () {
  "use strict";
  var page = document.querySelector(".bank-page");
  if (!page) return;
  var token = document.querySelector('meta[name="csrf-token"]').content;
  var live = document.getElementById("live");
  var toast = document.getElementById("toast");
  var proposal = null;

  var say = window.fantanSay(toast);

  function refresh() {
    return fetch(page.dataset.liveUrl, { headers: { "Accept": "text/html" }, cache: "no-store" })
      .then(function (r) { return r.ok ? r.text() : Promise.reject(r.status); })
      .then(function (html) { live.innerHTML = html; })
      .catch(function () { /* the next change or poll will try again */ });
  }

  function post(url, body) {
    return fetch(url, {
      method: "POST", body: JSON.stringify(body),
      headers: { "Content-Type": "application/json", "Accept": "application/json", "X-CSRF-Token": token }
    }).then(function (r) { return r.json().then(function (b) { return { ok: r.ok, body: b }; }); })
      .then(function (res) {
        if (!res.ok) { say(res.body.error || "That did not work.", "error"); return res; }
        page.dataset.revision = String(res.body.revision);
        if (res.body.flag) say(res.body.flag.explain, "warn");
        else if (res.body.hand) say(res.body.hand.winning_number + " wins: the payments are below, in pay order.");
        else if (res.body.undone) say("Line " + res.body.undone + " taken back.");
        else if (res.body.line) say("Line " + res.body.line + " recorded.");
        return refresh().then(function () { return res; });
      })
      .catch(function () { say("The dashboard cannot be reached: nothing was sent.", "error"); });
  }

  function event(body) { return post(page.dataset.eventsUrl, body); }

  function bet(spot) {
    var player = document.getElementById("bettor").value;
    var chips = document.getElementById("bet-chips").value;
    event({ event: "bet", player: player, spot: spot, chips: chips });
  }

  live.addEventListener("click", function (ev) {
    var spot = ev.target.closest(".spot");
    if (spot) { bet(spot.dataset.spot); return; }
    if (ev.target.id === "step-through") stepThrough();
  });
  live.addEventListener("keydown", function (ev) {
    var spot = ev.target.closest && ev.target.closest(".spot");
    if (spot && (ev.key === "Enter" || ev.key === " ")) { ev.preventDefault(); bet(spot.dataset.spot); }
  });

  // Forms inside the live part (open a bank, cut for the bank, undo): sent as JSON.
  live.addEventListener("submit", function (ev) {
    var form = ev.target;
    ev.preventDefault();
    if (form.dataset.undo) { post(page.dataset.undoUrl, { line: form.dataset.undo }); return; }
    var body = { event: form.dataset.event };
    new FormData(form).forEach(function (v, k) { body[k] = v; });
    event(body);
  });

  // Payments one at a time, as the banker makes them at the table.
  function stepThrough() {
    var list = live.querySelector(".paysteps");
    var button = document.getElementById("step-through");
    if (!list) return;
    var steps = list.querySelectorAll(".step");
    if (!list.classList.contains("one-by-one")) {
      list.classList.add("one-by-one");
      steps.forEach(function (s, i) { s.classList.toggle("later", i > 0); });
      button.textContent = steps.length > 1 ? "Next payment" : "Show all";
      return;
    }
    var next = list.querySelector(".step.later");
    if (next) next.classList.remove("later");
    if (!list.querySelector(".step.later")) { list.classList.remove("one-by-one"); button.textContent = "Show one by one"; }
  }

  document.querySelectorAll(".numbers .number").forEach(function (b) {
    b.addEventListener("click", function () { event({ event: "result", number: b.dataset.number }); });
  });
  document.getElementById("cut-form").addEventListener("submit", function (ev) {
    ev.preventDefault();
    var field = document.getElementById("cut-count");
    event({ event: "cut", count: field.value }).then(function (res) { if (res && res.ok) field.value = ""; });
  });

  // The camera proposes, the banker confirms.
  var box = document.getElementById("proposal");
  function showProposal(result, imageUrl) {
    proposal = result;
    var img = document.getElementById("proposal-img");
    var marks = document.getElementById("proposal-marks");
    img.src = imageUrl;
    marks.setAttribute("viewBox", "0 0 " + result.width + " " + result.height);
    var svg = "";
    result.groups.forEach(function (g) {
      var pts = g.outline.map(function (p) { return p[0] + "," + p[1]; }).join(" ");
      svg += '<polygon class="' + (g.confidence < 0.5 ? "unsure" : "") + '" points="' + pts + '"></polygon>';
      svg += '<text x="' + g.box[0] + '" y="' + Math.max(28, g.box[1] - 6) + '">' + g.cards + "</text>";
    });
    marks.innerHTML = svg;
    var text = document.getElementById("proposal-text");
    var ok = document.getElementById("proposal-ok");
    if (result.winning_number) {
      text.textContent = result.count + " cards: " + result.winning_number + " wins?";
      ok.textContent = "Confirm " + result.count + " cards";
      ok.hidden = false;
    } else {
      text.textContent = result.groups.length ? result.count + " cards counted: not a fair cut." : "No cards found.";
      ok.hidden = true;
    }
    // 0.8 and up: every pile read the same three ways (right 32 times in 33 on rendered cuts)
    document.getElementById("proposal-note").textContent = (result.note ? result.note + " " : "") +
      (result.confidence >= 0.8 ? "The camera is sure of every pile." :
       "Not sure: check the piles on the picture before confirming.");
    box.hidden = false;
  }
  function count(form, imageUrl) {
    say("Counting the cut…");
    fetch(page.dataset.countUrl, { method: "POST", body: form, headers: { "Accept": "application/json", "X-CSRF-Token": token } })
      .then(function (r) { return r.json().then(function (b) { return { ok: r.ok, body: b }; }); })
      .then(function (res) {
        if (!res.ok) { say(res.body.error || "The cut could not be counted.", "error"); return; }
        toast.hidden = true;
        showProposal(res.body, imageUrl);
      })
      .catch(function () { say("The dashboard cannot be reached.", "error"); });
  }
  document.getElementById("count-camera").addEventListener("click", function () {
    count(new FormData(), page.dataset.frameUrl + "?t=" + Date.now());
  });
  document.getElementById("count-photo").addEventListener("change", function (ev) {
    var file = ev.target.files[0];
    if (!file) return;
    var form = new FormData();
    form.append("photo", file);
    count(form, URL.createObjectURL(file));
  });
  document.getElementById("proposal-ok").addEventListener("click", function () {
    if (!proposal) return;
    event({ event: "cut", count: proposal.count, source: "camera" }).then(function (res) {
      if (res && res.ok) { box.hidden = true; proposal = null; }
    });
  });
  document.getElementById("proposal-no").addEventListener("click", function () {
    box.hidden = true; proposal = null;
    say("Not recorded. Type the count, or tap the winning number.");
  });

  // Other phones at the table: look for changes every few seconds (cheap: 304 when nothing moved).
  var etag = null;
  setInterval(function () {
    if (document.hidden) return;
    var headers = etag ? { "If-None-Match": etag } : {};
    fetch(page.dataset.stateUrl, { headers: headers, cache: "no-store" }).then(function (r) {
      if (r.status !== 200) return;
      var fresh = r.headers.get("ETag");
      var changed = etag !== null && fresh !== etag;
      etag = fresh;
      if (changed && !live.contains(document.activeElement)) refresh();
    }).catch(function () {});
  }, 4000);
})();
