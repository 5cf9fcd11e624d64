// The dashboard's live pages, through Server-Sent Events: the home page's
// latest records (a new charge, a payment) and a pending payment's status.
// Text is set with textContent, never as HTML.
(function () {
  "use strict";
  if (!window.EventSource) { return; }
  var home = document.getElementById("ao-vivo");
  if (home) {
    var es = new EventSource(home.getAttribute("data-events"));
    es.addEventListener("open", function () { document.getElementById("live").hidden = false; });
    es.addEventListener("status", function (e) {
      var rows = JSON.parse(e.data) || [];
      var body = document.querySelector("#lancamentos tbody");
      while (body.firstChild) { body.removeChild(body.firstChild); }
      rows.forEach(function (r) {
        var tr = document.createElement("tr");
        tr.setAttribute("data-record-id", r.id);
        var when = document.createElement("td"); when.textContent = r.when;
        var what = document.createElement("td");
        var a = document.createElement("a"); a.href = "/dashboard/payments/" + encodeURIComponent(r.id); a.textContent = r.type;
        what.appendChild(a);
        var amount = document.createElement("td"); amount.className = "money"; amount.textContent = r.amount;
        var status = document.createElement("td"); status.textContent = r.status;
        [when, what, amount, status].forEach(function (td) { tr.appendChild(td); });
        body.appendChild(tr);
      });
      var empty = document.getElementById("vazio");
      if (empty) { empty.hidden = rows.length > 0; }
    });
  }
  var payment = document.getElementById("pagamento");
  if (payment) {
    var first = true;
    var ps = new EventSource(payment.getAttribute("data-events"));
    ps.addEventListener("status", function (e) {
      var st = JSON.parse(e.data);
      document.getElementById("situacao").textContent = st.name;
      // A change after the page was drawn redraws its timeline.
      if (!first) { ps.close(); window.location.reload(); }
      first = false;
    });
  }
})();
