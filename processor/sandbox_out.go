package processor

import (
	"time"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/pixkey"
)

// SandboxFailKey is the sandbox EMAIL key whose PIX outs fail at settlement.
const SandboxFailKey = "fail@sandbox.jangada"

// FailsAtSettlement reports whether the sandbox fails a PIX out to this key.
func FailsAtSettlement(keyType, key string) bool {
	return keyType == string(pixkey.EMAIL) && key == SandboxFailKey
}

// Settlement is the notice the sandbox PIX network sends when a PIX out to
// the key settles: the recipient as the DICT would describe it, or a failure
// for the sandbox fail key.
func Settlement(keyType, key string, at time.Time) ChargeNotice {
	if FailsAtSettlement(keyType, key) {
		return ChargeNotice{Outcome: OutcomeFailed, At: at.UTC(), Reason: "recipient institution rejected the transfer"}
	}
	return ChargeNotice{Outcome: OutcomeSettled, At: at.UTC(), EndToEndID: EndToEndID(SandboxISPB, at), Recipient: &domain.Party{
		Name: "Recebedor Sandbox", Document: pixkey.Mask(pixkey.Type(keyType), key), Bank: "Jangada Sandbox (" + SandboxISPB + ")",
		PixKey: key,
	}}
}
