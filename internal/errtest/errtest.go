// Package errtest checks, in the tests of credlab's sub-packages, that an
// error is of an expected kind, told as callers tell credlab's errors
// apart: by errors.Is and errors.As, never by the message.
package errtest

import (
	"errors"
	"math"
	"strings"
	"testing"

	"github.com/credlab/credlab/internal/errs"
)

// Want reports a test error named name unless err is of the kind of want:
// a sentinel (errors.Is, such as errs.ErrShape or context.Canceled), or an
// error type (errors.As) whose fields set in want match: a *ParamError's
// Name (and Value when not nil; NaN matches NaN), a *NotFiniteError's
// input, position and value, a *DivergedError's Method (when set), words
// of a *DegenerateError's What; any *SingularError.
func Want(t testing.TB, name string, err, want error) {
	t.Helper()
	if err == nil {
		t.Errorf("%s: no error, want %T %v", name, want, want)
		return
	}
	var (
		pe *errs.ParamError
		nf *errs.NotFiniteError
		dv *errs.DivergedError
		de *errs.DegenerateError
		se *errs.SingularError
		ok bool
	)
	switch w := want.(type) {
	case *errs.ParamError:
		ok = errors.As(err, &pe) && pe.Name == w.Name && (w.Value == nil || same(pe.Value, w.Value))
	case *errs.NotFiniteError:
		ok = errors.As(err, &nf) && nf.Name == w.Name && nf.Row == w.Row && nf.Col == w.Col && same(nf.Value, w.Value)
	case *errs.DivergedError:
		ok = errors.As(err, &dv) && (w.Method == "" || dv.Method == w.Method)
	case *errs.DegenerateError:
		ok = errors.As(err, &de) && strings.Contains(de.What, w.What)
	case *errs.SingularError:
		ok = errors.As(err, &se)
	default:
		ok = errors.Is(err, want)
	}
	if !ok {
		t.Errorf("%s: got %v (%T), want %T %v", name, err, err, want, want)
	}
}

// same reports a == b, with NaN equal to NaN.
func same(a, b any) bool {
	fa, aok := a.(float64)
	fb, bok := b.(float64)
	return a == b || aok && bok && math.IsNaN(fa) && math.IsNaN(fb)
}
