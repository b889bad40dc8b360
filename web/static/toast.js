// The toast both table pages use to say what happened to a change: errors stay up longer.
// No framework, nothing downloaded.
(function () {
  "use strict";
  // A `say(message, kind)` that shows `message` in the element `toast` (kind: ok, warn or error).
  window.fantanSay = function (toast) {
    var timer = null;
    return function say(message, kind) {
      toast.textContent = message;
      toast.className = "toast " + (kind || "ok");
      toast.hidden = false;
      clearTimeout(timer);
      timer = setTimeout(function () { toast.hidden = true; }, kind === "error" ? 8000 : 5000);
    };
  };
})();
