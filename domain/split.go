package domain

import "github.com/jangada/jangada/money"

// SplitAsked reports whether a charge asks for a split: splitUser and
// splitTax come together or not at all.
func SplitAsked(user string, tax money.Percent) (bool, error) {
	switch {
	case user == "" && tax != 0:
		return false, Invalid("splitUser", "is required with splitTax")
	case user != "" && tax == 0:
		return false, Invalid("splitTax", "is required with splitUser")
	}
	return user != "", nil
}

// SplitTo pairs a charge of account with the partner its splitUser names:
// another account, paid tax of the charge's net.
func SplitTo(account, partner Account, tax money.Percent, net money.Cents) (*Split, error) {
	if partner.ID == account.ID {
		return nil, Invalid("splitUser", "must be another account than the charge's")
	}
	return &Split{AccountID: partner.ID, Email: partner.Email, Percent: tax, Amount: net.MulPercent(tax)}, nil
}
