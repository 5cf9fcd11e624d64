package schedule

import (
	"fmt"
	"strings"
	"time"
)

// weekdays in Portuguese, with the article that agrees with each
// ("Toda segunda-feira", "Todo sábado").
var weekdays = [7]struct{ every, name string }{
	{"Todo", "domingo"}, {"Toda", "segunda-feira"}, {"Toda", "terça-feira"}, {"Toda", "quarta-feira"},
	{"Toda", "quinta-feira"}, {"Toda", "sexta-feira"}, {"Todo", "sábado"},
}

// Label is the rule in Portuguese, as merchants read it in the dashboard:
// "Toda segunda-feira às 09:00". A zone other than Brasília's is named.
func (r Rule) Label() string {
	var s string
	switch r.Interval {
	case Weekly:
		w := weekdays[deref(r.DayOfWeek)%7]
		s = fmt.Sprintf("%s %s às %s", w.every, w.name, r.Time)
	case Monthly:
		day := deref(r.DayOfMonth)
		s = fmt.Sprintf("Todo dia %d de cada mês às %s", day, r.Time)
		if day > 28 {
			s += " (no último dia, nos meses mais curtos)"
		}
	case CustomDays:
		if n := deref(r.CustomDays); n > 1 {
			s = fmt.Sprintf("A cada %d dias às %s", n, r.Time)
		} else {
			s = "Todos os dias às " + r.Time
		}
	default:
		s = "Todos os dias às " + r.Time
	}
	if r.Timezone != "" && r.Timezone != DefaultTimezone {
		s += " (" + r.Timezone + ")"
	}
	return s
}

// brasilia is where one-off times are shown: the zone merchants think in.
var brasilia = func() *time.Location {
	loc, err := time.LoadLocation(DefaultTimezone)
	if err != nil {
		return time.FixedZone("BRT", -3*3600)
	}
	return loc
}()

// ScheduleLabel is the schedule's rule in Portuguese, for any trigger.
func (s Schedule) ScheduleLabel() string {
	switch s.Trigger {
	case Once:
		if s.At == nil {
			return "Uma vez"
		}
		return "Uma vez, em " + s.At.In(brasilia).Format("02/01/2006 às 15:04")
	case Recurring:
		if s.Rule == nil {
			return "Recorrente"
		}
		return s.Rule.Label()
	case BalanceThreshold:
		return "Quando o saldo disponível atingir " + s.Threshold.Format()
	}
	return strings.ToLower(s.Trigger)
}
