package api

import (
	"encoding/json"
	"errors"
	"io"
	"reflect"
	"strings"

	"github.com/gin-gonic/gin"

	"github.com/jangada/jangada/domain"
	"github.com/jangada/jangada/money"
)

// maxBody bounds request bodies; no API body comes near it.
const maxBody = 1 << 20

// bind decodes the JSON object body into dst (a pointer to a struct with json
// tags) field by field, so that every error names its field: "amount must be
// a number with at most two decimal places". Unknown fields are ignored and
// null counts as absent.
func bind(c *gin.Context, dst any) error {
	body, err := io.ReadAll(io.LimitReader(c.Request.Body, maxBody+1))
	if err != nil {
		return domain.Invalidf("could not read the request body")
	}
	if len(body) > maxBody {
		return domain.Invalidf("request body is larger than 1 MiB")
	}
	return bindJSON(body, dst)
}

// bindJSON is bind on a body already read: the one path from JSON bytes to
// a request type, which the OpenAPI document's required fields are derived
// through too (requiredFields), so that the document and the handlers see
// the same request. An empty body reads as {}.
func bindJSON(body []byte, dst any) error {
	if len(strings.TrimSpace(string(body))) == 0 {
		body = []byte("{}")
	}
	return bindObject(body, reflect.ValueOf(dst).Elem(), "")
}

func bindObject(raw []byte, v reflect.Value, prefix string) error {
	var fields map[string]json.RawMessage
	if err := json.Unmarshal(raw, &fields); err != nil || fields == nil {
		if prefix == "" {
			return domain.Invalidf("request body must be a JSON object")
		}
		return domain.Invalid(strings.TrimSuffix(prefix, "."), "must be an object")
	}
	t := v.Type()
	for i := range t.NumField() {
		f := t.Field(i)
		name, _, _ := strings.Cut(f.Tag.Get("json"), ",")
		if name == "" || name == "-" {
			continue
		}
		val, present := fields[name]
		if !present || string(val) == "null" {
			continue
		}
		fv := v.Field(i)
		if fv.Kind() == reflect.Pointer && fv.Type().Elem().Kind() == reflect.Struct && !isUnmarshaler(fv.Type()) {
			fv.Set(reflect.New(fv.Type().Elem()))
			if err := bindObject(val, fv.Elem(), prefix+name+"."); err != nil {
				return err
			}
			continue
		}
		if err := json.Unmarshal(val, fv.Addr().Interface()); err != nil {
			return fieldError(prefix+name, fv.Type(), err)
		}
		if err := cleanStrings(prefix+name, fv); err != nil {
			return err
		}
	}
	return nil
}

// cleanStrings refuses a decoded string (or list of strings) holding a NUL
// character, which PostgreSQL rejects in text and jsonb. JSON decoding has
// already replaced invalid UTF-8 with U+FFFD.
func cleanStrings(field string, v reflect.Value) error {
	switch v.Kind() {
	case reflect.Pointer:
		if !v.IsNil() {
			return cleanStrings(field, v.Elem())
		}
	case reflect.String:
		if strings.ContainsRune(v.String(), 0) {
			return domain.Invalid(field, "must not contain NUL characters")
		}
	case reflect.Slice:
		for i := range v.Len() {
			if err := cleanStrings(field, v.Index(i)); err != nil {
				return err
			}
		}
	case reflect.Interface:
		if !v.IsNil() {
			return cleanStrings(field, v.Elem())
		}
	}
	return nil
}

func isUnmarshaler(t reflect.Type) bool {
	return t.Implements(reflect.TypeFor[json.Unmarshaler]())
}

// fieldError turns a decoding error into a message naming the field.
func fieldError(field string, t reflect.Type, err error) error {
	var me *money.Error
	if errors.As(err, &me) {
		return domain.Invalid(field, "%s", me.Error())
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return domain.Invalid(field, "must be a string")
	case reflect.Bool:
		return domain.Invalid(field, "must be true or false")
	case reflect.Int, reflect.Int32, reflect.Int64:
		return domain.Invalid(field, "must be an integer")
	case reflect.Slice:
		return domain.Invalid(field, "must be a list of %s", t.Elem().Kind())
	}
	return domain.Invalid(field, "has an invalid value")
}

// reflectValue is the addressable struct behind a pointer, for bindObject.
func reflectValue(ptr any) reflect.Value { return reflect.ValueOf(ptr).Elem() }

// validator is a request body (a domain request type) that validates
// itself into the use case's request.
type validator[R any, B any] interface {
	*B
	Validate() (R, error)
}

// bindAndAct is the one shape of a handler with a body (creates, updates,
// deletes, locks, portal changes, reviews): bind the body, validate it,
// act, answer with message and the action's result. Every error goes
// through fail, so each one maps to its status in one place.
func bindAndAct[R any, B any, PB validator[R, B]](c *gin.Context, message string, act func(R) (any, error)) {
	readAndAct[R, B, PB](c, message, func(c *gin.Context) (B, error) {
		var body B
		return body, bind(c, &body)
	}, act)
}

// readAndAct is bindAndAct for a body read another way (a multipart form:
// readForm): read it, validate it, act, answer.
func readAndAct[R any, B any, PB validator[R, B]](c *gin.Context, message string, read func(*gin.Context) (B, error), act func(R) (any, error)) {
	body, err := read(c)
	if err != nil {
		fail(c, err)
		return
	}
	req, err := PB(&body).Validate()
	if err != nil {
		fail(c, err)
		return
	}
	out, err := act(req)
	if err != nil {
		fail(c, err)
		return
	}
	ok(c, message, out)
}
