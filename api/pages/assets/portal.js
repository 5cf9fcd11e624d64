// The portal's charge page: the status kept live through
// Server-Sent Events. Text is set with textContent, never as HTML.
(function () {
  "use strict";
  var root = document.getElementById("cobranca");
  if (!root) { return; }
  var names = { PENDING: "pendente", COMPLETED: "concluído", FAILED: "falhou", CANCELED: "cancelado", REVERSED: "estornado" };
  function show(status) {
    root.setAttribute("data-status", status);
    document.getElementById("status").textContent = names[status] || status;
    document.getElementById("pagar").hidden = status !== "PENDING";
    document.getElementById("pago").hidden = status !== "COMPLETED";
  }
  if (root.getAttribute("data-status") !== "PENDING" || !window.EventSource) { return; }
  var es = new EventSource(root.getAttribute("data-events"));
  es.addEventListener("status", function (e) {
    var state = JSON.parse(e.data);
    show(state.status);
    if (state.status !== "PENDING") { es.close(); }
  });
})();
