package api

import (
	"strconv"
	"strings"
	"time"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/service"
)

// page is the list envelope of the spec.
type page[T any] struct {
	Items    []T `json:"items"`
	Page     int `json:"page"`
	PageSize int `json:"pageSize"`
	Total    int `json:"total"`
	Pages    int `json:"pages"`
}

// pageOf maps stored rows to their public form and computes the page counts.
func pageOf[S, T any](rows []S, f service.ListFilter, total int, view func(S) T) page[T] {
	items := make([]T, len(rows))
	for i, r := range rows {
		items[i] = view(r)
	}
	return page[T]{Items: items, Page: f.Page, PageSize: f.PageSize, Total: total, Pages: (total + f.PageSize - 1) / f.PageSize}
}

// pageParams reads page (from 1) and pageSize (1 to 100, default 50): the
// one pagination of every list route.
func pageParams(c *gin.Context) (service.ListFilter, error) {
	f := service.ListFilter{Page: 1, PageSize: 50}
	var err error
	if f.Page, err = intParam(c, "page", 1, 1, 1<<31-1); err != nil {
		return f, err
	}
	f.PageSize, err = intParam(c, "pageSize", 50, 1, 100)
	return f, err
}

// listFilter parses the common list parameters; withSubaccount admits the
// sub-account filters of the routes that have them.
func listFilter(c *gin.Context, withSubaccount bool) (service.ListFilter, error) {
	f, err := pageParams(c)
	if err != nil {
		return f, err
	}
	if f.DateFrom, err = timeParam(c, "dateFrom", false); err != nil {
		return f, err
	}
	if f.DateTo, err = timeParam(c, "dateTo", true); err != nil {
		return f, err
	}
	if f.Status, err = domain.OneOf("status", c.Query("status"), domain.Statuses...); err != nil {
		return f, err
	}
	f.ExternalReference = c.Query("externalReference")
	f.Search = strings.TrimSpace(c.Query("search"))
	if withSubaccount {
		f.SubaccountID = c.Query("subaccountId")
		if f.SubaccountID == "" {
			f.SubaccountID = c.Query("merchantSubaccountId")
		}
	}
	return f, nil
}

func intParam(c *gin.Context, name string, def, lo, hi int) (int, error) {
	raw, present := c.GetQuery(name)
	if !present || raw == "" {
		return def, nil
	}
	n, err := strconv.Atoi(raw)
	if err != nil || n < lo || n > hi {
		return 0, domain.Invalid(name, "must be an integer from %d to %d", lo, hi)
	}
	return n, nil
}

// timeParam reads an ISO 8601 instant or date; a bare date as the upper
// bound means the end of that day.
func timeParam(c *gin.Context, name string, endOfDay bool) (*time.Time, error) {
	raw := c.Query(name)
	if raw == "" {
		return nil, nil
	}
	if t, err := time.Parse(time.RFC3339Nano, raw); err == nil {
		return &t, nil
	}
	if t, err := time.Parse("2006-01-02", raw); err == nil {
		if endOfDay {
			t = t.Add(24*time.Hour - time.Nanosecond)
		}
		return &t, nil
	}
	return nil, domain.Invalid(name, "must be an ISO 8601 date or date-time")
}
