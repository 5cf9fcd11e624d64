package api

import (
	"context"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/domain/med"
	"github.com/jangada/jangada/service"
)

//go:generate go tool mockgen -destination=apimock/meds.go -package=apimock . MEDs

// MEDs reads MED disputes and takes the merchant's evidence.
type MEDs interface {
	List(ctx context.Context, acct domain.Account, f service.ListFilter) ([]domain.Transaction, int, error)
	Get(ctx context.Context, acct domain.Account, idOrProtocol string) (domain.Transaction, error)
	Evidence(ctx context.Context, acct domain.Account, idOrProtocol string, in med.NewEvidence) (domain.Transaction, error)
}

// MED disputes: list, get (by id or protocol), evidence (JSON
// with attachments, or multipart with files), and the sandbox routes that
// play the processor (an infraction report, its decision).

// MEDSandbox simulates a payer's PSP opening and resolving a dispute.
type MEDSandbox interface {
	OpenMED(ctx context.Context, acct domain.Account, o med.MedOpening) (service.Simulated, error)
	ResolveMED(ctx context.Context, acct domain.Account, id, status string) (service.Simulated, error)
}

func (s *Server) listMEDs(c *gin.Context) {
	f, err := pageParams(c)
	if err != nil {
		fail(c, err)
		return
	}
	if f.Status, err = domain.OneOf("status", c.Query("status"), med.MedStatuses...); err != nil {
		fail(c, err)
		return
	}
	rows, total, err := s.MEDs.List(c.Request.Context(), accountOf(c), f)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "MED disputes", pageOf(rows, f, total, func(t domain.Transaction) domain.PublicTransaction { return t.Public(s.cfg.PublicURL) }))
}

func (s *Server) getMED(c *gin.Context) {
	m, err := s.MEDs.Get(c.Request.Context(), accountOf(c), c.Param("id"))
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, "MED dispute", m.Public(s.cfg.PublicURL))
}

// medEvidence binds the evidence (JSON, or multipart/form-data with the
// same description and the files as "files"), validates it (size cap and
// type sniffed from each file's bytes) and sends it.
func (s *Server) medEvidence(c *gin.Context) {
	read := func(c *gin.Context) (med.EvidenceRequest, error) {
		var b med.EvidenceRequest
		return b, bind(c, &b)
	}
	if strings.HasPrefix(c.ContentType(), "multipart/") {
		read = multipartEvidence
	}
	readAndAct[med.NewEvidence, med.EvidenceRequest](c, "MED evidence sent", read, func(in med.NewEvidence) (any, error) {
		m, err := s.MEDs.Evidence(c.Request.Context(), accountOf(c), c.Param("id"), in)
		if err != nil {
			return nil, err
		}
		return m.Public(s.cfg.PublicURL), nil
	})
}

// multipartEvidence reads a multipart evidence: the field description and
// the files "files" (each read up to one byte past the cap, so that a
// larger one is refused without reading it whole).
func multipartEvidence(c *gin.Context) (med.EvidenceRequest, error) {
	var b med.EvidenceRequest
	form, err := readForm(c, domain.Invalidf("request body is larger than 1 MiB"))
	if err != nil {
		return b, err
	}
	if err := form.texts(8000, map[string]**string{"description": &b.Description}); err != nil {
		return b, err
	}
	if len(form.File["files"]) > med.MaxEvidenceFiles {
		return b, domain.Invalid("files", "must hold at most %d files", med.MaxEvidenceFiles)
	}
	files, err := form.files("files", med.MaxEvidenceFile)
	for _, f := range files {
		b.Files = append(b.Files, med.UploadedFile{Name: f.Name, Bytes: f.Bytes, TooBig: len(f.Bytes) > med.MaxEvidenceFile})
	}
	return b, err
}

func (s *Server) sandboxOpenMED(c *gin.Context) {
	var body med.MedOpeningRequest
	if err := bind(c, &body); err != nil {
		fail(c, err)
		return
	}
	o, err := body.Validate()
	if err != nil {
		fail(c, err)
		return
	}
	r, err := s.Sandbox.OpenMED(c.Request.Context(), accountOf(c), o)
	simulated(c, r, err)
}

func (s *Server) sandboxResolveMED(c *gin.Context) {
	var body med.MedResolveRequest
	if err := bind(c, &body); err != nil {
		fail(c, err)
		return
	}
	status, err := body.Validate()
	if err != nil {
		fail(c, err)
		return
	}
	r, err := s.Sandbox.ResolveMED(c.Request.Context(), accountOf(c), c.Param("id"), status)
	simulated(c, r, err)
}
