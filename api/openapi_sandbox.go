package api

// The OpenAPI Docs of the sandbox routes (present with JANGADA_PROCESSOR=sandbox).
var _ = documents(merchantDocs, map[string]Doc{
	"POST /sandbox/payment-pix/:id/pay": {
		Summary: "Sandbox: the payer pays the charge", Body: sandboxPayBody{}, Data: simulation{},
		Example: map[string]any{"payerName": "Maria Silva", "payerDocument": "52998224725"},
	},
	"POST /sandbox/payment-pix/:id/fail":    {Summary: "Sandbox: the charge's receive flow fails", Data: simulation{}},
	"POST /sandbox/payment-pix/:id/expire":  {Summary: "Sandbox: the charge's expiry fires now", Data: simulation{}},
	"POST /sandbox/transfer-pix/:id/settle": {Summary: "Sandbox: the PIX out settles", Data: simulation{}},
	"POST /sandbox/transfer-pix/:id/fail":   {Summary: "Sandbox: the PIX out fails (money back)", Data: simulation{}},
	"POST /sandbox/refunds/:id/settle":      {Summary: "Sandbox: the refund concludes", Data: simulation{}},
	"POST /sandbox/refunds/:id/fail":        {Summary: "Sandbox: the refund fails", Data: simulation{}},
})
