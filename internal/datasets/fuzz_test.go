package datasets

import (
	"bytes"
	"errors"
	"math"
	"os"
	"testing"

	"github.com/credlab/credlab/internal/errs"
	"gonum.org/v1/gonum/mat"
)

// fuzzLimit keeps the fuzzers' allocations small: corrupt input that claims
// a huge dimension must be refused, not allocated.
const fuzzLimit = 1 << 16

// checkResult verifies the invariants of a successful read and the type of
// a failed one.
func checkResult(t *testing.T, x *mat.Dense, y []float64, wantY bool, err error) {
	t.Helper()
	if err != nil {
		checkErrorType(t, err)
		if x != nil || y != nil {
			t.Fatal("data returned with an error")
		}
		return
	}
	r, c := x.Dims()
	if r == 0 || c == 0 || int64(r)*int64(c) > MaxElements {
		t.Fatalf("bad dims %d x %d", r, c)
	}
	if wantY != (y != nil) || (y != nil && len(y) != r) {
		t.Fatalf("%d rows, %d targets (want targets: %v)", r, len(y), wantY)
	}
	for i := 0; i < r; i++ {
		for j := 0; j < c; j++ {
			if v := x.At(i, j); math.IsNaN(v) || math.IsInf(v, 0) {
				t.Fatalf("x[%d,%d] = %v", i, j, v)
			}
		}
	}
	for i, v := range y {
		if math.IsNaN(v) || math.IsInf(v, 0) {
			t.Fatalf("y[%d] = %v", i, v)
		}
	}
}

// checkErrorType accepts the loaders' error types: *ParseError, *CellError
// and *errs.TooLargeError.
func checkErrorType(t *testing.T, err error) {
	t.Helper()
	var (
		pe *ParseError
		ce *CellError
		tl *errs.TooLargeError
	)
	if !errors.As(err, &pe) && !errors.As(err, &ce) && !errors.As(err, &tl) {
		t.Fatalf("error %v (%T) is not a *ParseError, *CellError or *errs.TooLargeError", err, err)
	}
}

func addFile(f *testing.F, path string, args ...any) {
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(append([]any{b}, args...)...)
}

func FuzzLIBSVM(f *testing.F) {
	addFile(f, "testdata/tiny.libsvm", 0)
	addFile(f, "testdata/crlf.libsvm", 3)
	addFile(f, "testdata/a9a/a9a", 123)
	f.Add([]byte("1 1:1 2:2\n-1 3:1e-3 # c\n"), 0)
	f.Add([]byte("1 qid:2 70000:1\n"), 0)
	// A stray huge index, bad labels and values.
	f.Add([]byte("1 1:1 100000000:1\n2 1:2\n"), 0)
	f.Add([]byte("abc 1:1\n1 2:x 3:1e999\n"), 0)
	f.Fuzz(func(t *testing.T, data []byte, d int) {
		defer func(m int64) { MaxElements = m }(MaxElements)
		MaxElements = fuzzLimit
		x, y, err := ReadLIBSVM(bytes.NewReader(data), "fuzz", d)
		checkResult(t, x, y, true, err)
		if err == nil && d > 0 {
			if _, c := x.Dims(); c != d {
				t.Fatalf("%d columns, want d = %d", c, d)
			}
		}
	})
}

func FuzzARFF(f *testing.F) {
	addFile(f, "testdata/tiny.arff", "")
	addFile(f, "testdata/tiny.arff", "b c")
	addFile(f, "testdata/nominal.arff", "x")
	f.Add([]byte("@relation r\n@attribute a numeric\n@attribute b numeric\n@data\n{1 2}\n3,4\n"), "a")
	// Bad numbers, an empty field, a control character.
	f.Add([]byte("@attribute a numeric\n@attribute b real\n@data\n1,abc\n1e999,2\n3,\n{1 x}\n"), "")
	f.Add([]byte("@attribute c {x,'y\x00'}\n@attribute b numeric\n@data\nx,1\n"), "b")
	f.Fuzz(func(t *testing.T, data []byte, target string) {
		defer func(m int64) { MaxElements = m }(MaxElements)
		MaxElements = fuzzLimit
		x, y, err := ReadARFF(bytes.NewReader(data), "fuzz", target)
		checkResult(t, x, y, true, err)
	})
}
