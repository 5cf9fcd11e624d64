// The pages' copy button (a session's or a portal charge's copy-paste
// code): it copies its data-target's text and says so in #copiado. Text is
// set with textContent, never as HTML.
(function () {
  "use strict";
  var copy = document.getElementById("copiar");
  if (copy) {
    copy.addEventListener("click", function () {
      var area = document.getElementById(copy.getAttribute("data-target"));
      var done = function () { document.getElementById("copiado").textContent = "Código copiado."; };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(area.value).then(done, function () { area.select(); document.execCommand("copy"); done(); });
      } else { area.select(); document.execCommand("copy"); done(); }
    });
  }
})();
// The dashboard's copy buttons: each copies its own data-copy text (a
// secret shown once, an invitation's link) and says so on itself.
(function () {
  "use strict";
  var buttons = document.querySelectorAll("button.copy[data-copy]");
  Array.prototype.forEach.call(buttons, function (b) {
    b.addEventListener("click", function () {
      var done = function () { b.textContent = "Copiado"; };
      if (navigator.clipboard && navigator.clipboard.writeText) {
        navigator.clipboard.writeText(b.getAttribute("data-copy")).then(done, function () {});
      }
    });
  });
})();
