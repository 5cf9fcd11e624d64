// The boleto slip's print button (the pages' CSP allows no inline script).
"use strict";
document.getElementById("imprimir")?.addEventListener("click", () => window.print());
