package api

import (
	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/subaccount"
)

// The pages' words for the API's codes, in Portuguese.

// localTime is an instant as a person in Brazil reads it (America/Sao_Paulo).
func localTime(t domain.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(domain.SaoPaulo).Format("02/01/2006 15:04")
}

var typeNames = map[string]string{
	domain.TypePixIn: "PIX recebido", domain.TypePixOut: "PIX enviado", domain.TypeRefund: "Devolução de PIX",
	domain.TypeSplitIn: "Split recebido", domain.TypeAdjustment: "Ajuste", domain.TypeInternalOut: "Transferência enviada",
	domain.TypeInternalIn: "Transferência recebida", domain.TypeMED: "Contestação (MED)",
	subaccount.TypeAddBalance: "Crédito da conta principal", subaccount.TypeRemoveBalance: "Débito para a conta principal",
	subaccount.TypeTransfer: "Transferência entre subcontas",
}

// typeName is a record's type in words (the code itself when unnamed).
func typeName(t string) string {
	if n, ok := typeNames[t]; ok {
		return n
	}
	return t
}

var txStatusNames = map[string]string{
	domain.StatusPending: "pendente", domain.StatusProcessing: "em processamento", domain.StatusCompleted: "concluído",
	domain.StatusFailed: "falhou", domain.StatusCanceled: "cancelado", domain.StatusReversed: "estornado",
}

// txStatusName is a record's status in words.
func txStatusName(s string) string {
	if n, ok := txStatusNames[s]; ok {
		return n
	}
	return s
}

var lockNames = map[string]string{subaccount.LockNone: "nenhum", subaccount.LockFull: "total",
	subaccount.LockWithdrawOnly: "saques bloqueados", subaccount.LockDepositOnly: "depósitos bloqueados"}

// lockName is a sub-account's lock mode in words.
func lockName(mode string) string {
	if n, ok := lockNames[mode]; ok {
		return n
	}
	return mode
}
