package app

import (
	"github.com/jangada/jangada/activities"
	"github.com/jangada/jangada/processor"
)

// activities builds the money worker's activity structs, one per product
// (TestEveryActivityStructIsHosted fails for a struct of package
// activities that is not here). A product whose steps make another
// product's resources gets that product's use case, built by New.
func (a *App) activities(base activities.Base, proc processor.Processor) []any {
	return []any{
		&activities.Charges{Base: base},
		&activities.Transfers{Base: base, Processor: proc},
		&activities.Refunds{Base: base, Processor: proc},
		&activities.Schedules{DB: base.DB, Runner: a.Schedules},
		&activities.MEDs{Base: base, Processor: proc},
		&activities.PixAutomatic{Base: base, Processor: proc, Maker: a.PixAutomatic},
		&activities.Subscriptions{Base: base, Biller: a.Subscriptions},
		&activities.Bureau{Base: base, Processor: proc},
		&activities.Billings{Base: base, Processor: proc},
		&activities.Recharges{Base: base, Processor: proc},
		&activities.Crypto{Base: base, Processor: proc},
		&activities.FiscalInvoices{Base: base, Processor: proc},
	}
}
