// The hosted checkout session page: countdown to expiry, and
// the status kept live through Server-Sent Events (no API key: the
// session's unguessable id is its address). Text is set with textContent,
// never as HTML.
(function () {
  "use strict";
  var root = document.getElementById("sessao");
  if (!root) { return; }
  var names = { OPEN: "aguardando pagamento", PAID: "pago", EXPIRED: "expirado" };
  var statusEl = document.getElementById("status");
  var expires = Date.parse(root.getAttribute("data-expires"));
  var countdown = document.getElementById("contagem");
  function tick() {
    if (!countdown || root.getAttribute("data-status") !== "OPEN") { return; }
    var left = Math.max(0, Math.floor((expires - Date.now()) / 1000));
    var m = Math.floor(left / 60), s = left % 60;
    countdown.textContent = m + ":" + (s < 10 ? "0" : "") + s;
  }
  tick();
  setInterval(tick, 1000);
  function show(state) {
    root.setAttribute("data-status", state.status);
    statusEl.textContent = names[state.status] || state.status;
    document.getElementById("pagar").hidden = state.status !== "OPEN";
    document.getElementById("expirado").hidden = state.status !== "EXPIRED";
    var box = document.getElementById("entrega");
    box.hidden = state.status !== "PAID";
    if (state.status === "PAID" && state.delivery) {
      var list = document.getElementById("itens");
      list.textContent = "";
      state.delivery.forEach(function (d) {
        var li = document.createElement("li");
        if (d.productName) {
          var b = document.createElement("strong");
          b.textContent = d.productName;
          li.appendChild(b);
          li.appendChild(document.createTextNode(": "));
        }
        if (d.redirectUrl && /^https?:\/\//i.test(d.redirectUrl)) {
          var a = document.createElement("a");
          a.href = d.redirectUrl;
          a.rel = "noopener noreferrer";
          a.textContent = d.redirectUrl;
          li.appendChild(a);
        } else {
          var span = document.createElement("span");
          span.className = "content";
          span.textContent = d.content || "";
          li.appendChild(span);
        }
        list.appendChild(li);
      });
    }
  }
  if (root.getAttribute("data-status") !== "OPEN" || !window.EventSource) { return; }
  var es = new EventSource(root.getAttribute("data-events"));
  es.addEventListener("status", function (e) {
    var state = JSON.parse(e.data);
    show(state);
    if (state.status !== "OPEN") { es.close(); }
  });
})();
