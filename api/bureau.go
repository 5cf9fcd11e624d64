package api

import (
	"context"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/bureau"
)

//go:generate go tool mockgen -destination=apimock/bureau.go -package=apimock . Bureau

// Bureau is the credit bureau: dunnings of overdue billings and credit
// reports (routes behind the creditBureau feature).
type Bureau interface {
	Simulate(ctx context.Context, acct domain.Account, payment string) (bureau.DunningSimulation, error)
	CreateDunning(ctx context.Context, acct domain.Account, in bureau.NewDunning) (bureau.DunningView, error)
	GetDunning(ctx context.Context, acct domain.Account, id string) (bureau.DunningView, error)
	ListDunnings(ctx context.Context, acct domain.Account, f bureau.DunningFilter) ([]bureau.Dunning, int, error)
	CreateReport(ctx context.Context, acct domain.Account, in bureau.NewReport) (bureau.Report, error)
	GetReport(ctx context.Context, acct domain.Account, id string) (bureau.Report, error)
	ListReports(ctx context.Context, acct domain.Account, page, pageSize int) ([]bureau.Report, int, error)
}

func (s *Server) simulateDunning(c *gin.Context) {
	payment := strings.TrimSpace(c.Query("payment"))
	if payment == "" {
		fail(c, domain.Invalid("payment", "is required: the billing id"))
		return
	}
	sim, err := s.Bureau.Simulate(c.Request.Context(), accountOf(c), payment)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Dunning simulation", sim)
}

func (s *Server) createDunning(c *gin.Context) {
	readAndAct[bureau.NewDunning, bureau.DunningRequest](c, "Dunning requested", dunningForm, func(in bureau.NewDunning) (any, error) {
		in.IdempotencyKey = idempotencyKey(c)
		return s.Bureau.CreateDunning(c.Request.Context(), accountOf(c), in)
	})
}

// dunningForm reads a dunning's multipart/form-data (the CONTRACTS.md
// fields and the file "documents"), or its JSON form.
func dunningForm(c *gin.Context) (bureau.DunningRequest, error) {
	var b bureau.DunningRequest
	if !strings.HasPrefix(c.ContentType(), "multipart/form-data") {
		return b, bind(c, &b) // JSON: documents as {name, contentBase64}
	}
	form, err := readForm(c, domain.Invalid("documents", "must have at most %d KiB (the whole request at most 1 MiB)", bureau.MaxDunningDocument>>10))
	if err != nil {
		return b, err
	}
	if err := form.texts(1024, map[string]**string{
		"payment": &b.Payment, "type": &b.Type, "description": &b.Description, "customerName": &b.CustomerName,
		"customerCpfCnpj": &b.CustomerCpfCnpj, "customerPrimaryPhone": &b.CustomerPrimaryPhone, "customerEmail": &b.CustomerEmail,
		"customerPostalCode": &b.CustomerPostalCode, "customerAddress": &b.CustomerAddress, "customerAddressNumber": &b.CustomerAddressNumber,
		"customerComplement": &b.CustomerComplement, "customerProvince": &b.CustomerProvince, "customerCity": &b.CustomerCity,
		"customerState": &b.CustomerState,
	}); err != nil {
		return b, err
	}
	files, err := form.files("documents", bureau.MaxDunningDocument)
	if err != nil || len(files) == 0 {
		return b, err
	}
	b.Document = files[0].Bytes
	if cleanValue("documents", files[0].Name, 200) == nil {
		b.DocumentName = files[0].Name
	}
	return b, nil
}

// dunningList is the dunning list's own envelope in data (the spec's):
// {object: "list", hasMore, totalCount, limit, offset, data}.
type dunningList struct {
	Object     string               `json:"object"`
	HasMore    bool                 `json:"hasMore"`
	TotalCount int                  `json:"totalCount"`
	Limit      int                  `json:"limit"`
	Offset     int                  `json:"offset"`
	Data       []bureau.DunningView `json:"data"`
}

func (s *Server) listDunnings(c *gin.Context) {
	var f bureau.DunningFilter
	var err error
	if f.Offset, err = intParam(c, "offset", 0, 0, 1<<31-1); err != nil {
		fail(c, err)
		return
	}
	if f.Limit, err = intParam(c, "limit", 10, 1, 100); err != nil {
		fail(c, err)
		return
	}
	if f.Status, err = domain.OneOf("status", c.Query("status"), bureau.DunningStatuses...); err != nil {
		fail(c, err)
		return
	}
	if t := c.Query("type"); strings.TrimSpace(t) != "" {
		var ok bool
		if f.Type, ok = bureau.DunningTypes.Match(t); !ok {
			fail(c, domain.Invalid("type", "must be %s", bureau.DunningTypes))
			return
		}
	}
	f.Payment = strings.TrimSpace(c.Query("payment"))
	rows, total, err := s.Bureau.ListDunnings(c.Request.Context(), accountOf(c), f)
	if err != nil {
		fail(c, err)
		return
	}
	out := dunningList{Object: "list", HasMore: f.Offset+len(rows) < total, TotalCount: total, Limit: f.Limit, Offset: f.Offset,
		Data: make([]bureau.DunningView, len(rows))}
	for i, d := range rows {
		out.Data[i] = d.View()
	}
	ok(c, "Dunnings", out)
}

func (s *Server) getDunning(c *gin.Context) {
	d, err := s.Bureau.GetDunning(c.Request.Context(), accountOf(c), c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Dunning", d)
}

func (s *Server) createReport(c *gin.Context) {
	bindAndAct[bureau.NewReport, bureau.ReportRequest](c, "Credit report created", func(req bureau.NewReport) (any, error) {
		req.IdempotencyKey = idempotencyKey(c)
		return s.Bureau.CreateReport(c.Request.Context(), accountOf(c), req)
	})
}

func (s *Server) listReports(c *gin.Context) {
	f, err := pageParams(c)
	if err != nil {
		fail(c, err)
		return
	}
	rows, total, err := s.Bureau.ListReports(c.Request.Context(), accountOf(c), f.Page, f.PageSize)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Credit reports", pageOf(rows, f, total, func(r bureau.Report) bureau.Report { return r }))
}

func (s *Server) getReport(c *gin.Context) {
	r, err := s.Bureau.GetReport(c.Request.Context(), accountOf(c), c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "Credit report", r)
}
