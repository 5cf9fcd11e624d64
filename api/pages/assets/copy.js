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
