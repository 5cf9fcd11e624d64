package api

import (
	"errors"
	"io"
	"mime/multipart"
	"net/http"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
)

// form is a parsed multipart/form-data body: the one way a handler reads
// one (a dunning's documents, a MED's evidence, a PJ sub-account's proof).
type form struct{ *multipart.Form }

// readForm parses the request's multipart body, at most maxBody bytes; a
// larger body is refused with tooBig (each product words its own limit),
// any other malformed body with the same 400.
func readForm(c *gin.Context, tooBig error) (form, error) {
	c.Request.Body = http.MaxBytesReader(c.Writer, c.Request.Body, maxBody)
	if err := c.Request.ParseMultipartForm(maxBody); err != nil {
		var over *http.MaxBytesError
		if errors.As(err, &over) {
			return form{}, tooBig
		}
		return form{}, domain.Invalidf("request body must be valid multipart/form-data")
	}
	return form{c.Request.MultipartForm}, nil
}

// texts sets each named field's pointer to the field's first value, when
// sent, refusing a value that is not clean UTF-8 of at most maxLen bytes.
func (f form) texts(maxLen int, fields map[string]**string) error {
	for name, dst := range fields {
		vs := f.Value[name]
		if len(vs) == 0 {
			continue
		}
		if err := cleanValue(name, vs[0], maxLen); err != nil {
			return err
		}
		*dst = &vs[0]
	}
	return nil
}

// upload is one file of the form, read up to one byte past its product's
// cap, so that a larger one is refused without reading it whole.
type upload struct {
	Name  string
	Bytes []byte
}

// files reads the files sent under name (none: nil), each up to limit+1
// bytes.
func (f form) files(name string, limit int64) ([]upload, error) {
	var out []upload
	for _, fh := range f.File[name] {
		r, err := fh.Open()
		if err != nil {
			return nil, domain.Invalid(name, "could not be read")
		}
		raw, err := io.ReadAll(io.LimitReader(r, limit+1))
		r.Close()
		if err != nil {
			return nil, domain.Invalid(name, "could not be read")
		}
		out = append(out, upload{Name: fh.Filename, Bytes: raw})
	}
	return out, nil
}
