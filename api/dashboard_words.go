package api

import (
	"strings"
	"time"
	"unicode/utf8"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/dashboard"
	"github.com/jangada/jangada/domain/subaccount"
)

// The dashboard's words for codes, in Portuguese (pages_words.go has the
// records').

var roleNames = map[string]string{dashboard.RoleOwner: "titular", dashboard.RoleAdmin: "administração",
	dashboard.RoleDeveloper: "desenvolvimento", dashboard.RoleViewer: "leitura"}

// roleName is a role in words.
func roleName(r string) string { return wordFor(roleNames, r) }

var endpointStatusNames = map[string]string{domain.EndpointActive: "ativo", domain.EndpointDisabled: "desativado"}

// endpointStatus is an endpoint's status in words.
func endpointStatus(s string) string { return wordFor(endpointStatusNames, s) }

var deliveryStatusNames = map[string]string{"PENDING": "pendente", "DELIVERED": "entregue", "FAILED": "falhou", "CANCELED": "cancelada"}

// deliveryStatus is a delivery's status in words.
func deliveryStatus(s string) string { return wordFor(deliveryStatusNames, s) }

var auditNames = map[string]string{
	"account.signup": "criou a conta", "user.login": "entrou", "user.invite": "convidou", "user.remove": "removeu",
	"user.password_set": "definiu a senha", "user.two_factor_enrolled": "ativou duas etapas",
	"key.create": "criou chave", "key.revoke": "revogou chave", "key.roll": "trocou segredo de chave",
	"webhook.create": "criou endpoint", "webhook.status": "mudou endpoint", "webhook.delete": "excluiu endpoint",
	"webhook.test": "enviou teste", "webhook.resend": "reenviou entrega",
}

// auditName is an audit action in words.
func auditName(a string) string { return wordFor(auditNames, a) }

var portalStateNames = map[string]string{subaccount.PortalNone: "sem portal", subaccount.PortalActive: "ativo",
	subaccount.PortalDisabled: "desativado", subaccount.PortalPendingPassword: "aguardando senha",
	subaccount.PortalInvitePending: "convite pendente", subaccount.PortalPendingVerification: "aguardando verificação"}

// portalState is a sub-account portal's state in words.
func portalState(s string) string { return wordFor(portalStateNames, s) }

var stepNames = map[string]string{"created": "criado", "completed": "finalizado"}

// stepTitle is a timeline step's title: a record's moment in words, an
// event's type, or "webhook" and the event of a delivery's attempt.
func stepTitle(kind, title string) string {
	switch kind {
	case "record":
		return wordFor(stepNames, title)
	case "attempt":
		return "webhook " + title
	}
	return title
}

func wordFor(words map[string]string, code string) string {
	if w, ok := words[code]; ok {
		return w
	}
	return code
}

// localWhen is localTime for a plain instant.
func localWhen(t *time.Time) string {
	if t == nil {
		return ""
	}
	return localTime(domain.Time{Time: *t})
}

// localSeconds is an instant to the second in America/Sao_Paulo.
func localSeconds(t domain.Time) string {
	if t.IsZero() {
		return ""
	}
	return t.In(domain.SaoPaulo).Format("02/01/2006 15:04:05")
}

// join lists codes with commas.
func join(v []string) string { return strings.Join(v, ", ") }

// revokedNow reports whether a key's revocation has taken effect (a
// rolled key's grace is over).
func revokedNow(t *domain.Time) bool { return t != nil && !t.After(time.Now()) }

// firstBytesShown is how much of an endpoint's answer a delivery shows.
const firstBytesShown = 200

// firstBytes is the start of an endpoint's answer, cut on a rune.
func firstBytes(s string) string {
	if len(s) <= firstBytesShown {
		return s
	}
	cut := firstBytesShown
	for cut > 0 && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut] + "…"
}
