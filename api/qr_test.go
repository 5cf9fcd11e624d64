package api

import (
	"net/http"
	"strings"
	"testing"

	"go.uber.org/mock/gomock"

	"github.com/jangada/jangada/domain"
)

// A QR URL answers the PNG while its charge is payable, and afterwards
// says why it no longer does (not "route not found").
func TestQRImageSaysWhyNotPayable(t *testing.T) {
	f := newFixture(t)
	f.txs.EXPECT().PendingCopyPaste(gomock.Any(), "ch_paid").Return("", &domain.Error{Kind: domain.ErrConflict, Message: "charge is no longer payable: it is COMPLETED"})
	f.txs.EXPECT().PendingCopyPaste(gomock.Any(), "ch_none").Return("", domain.NotFound("charge"))
	if w := f.serve(http.MethodGet, "/qr/ch_paid.png", ""); w.Code != http.StatusConflict || !strings.Contains(w.Body.String(), "no longer payable: it is COMPLETED") {
		t.Errorf("paid: %d %s", w.Code, w.Body)
	}
	if w := f.serve(http.MethodGet, "/qr/ch_none.png", ""); w.Code != http.StatusNotFound || !strings.Contains(w.Body.String(), "charge not found") {
		t.Errorf("unknown: %d %s", w.Code, w.Body)
	}
}
