package datasets

import (
	"bytes"
	"errors"
	"math"
	"os"
	"testing"

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
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Fatalf("error %v (%T) is not a *ParseError", err, err)
		}
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
	f.Fuzz(func(t *testing.T, data []byte, target string) {
		defer func(m int64) { MaxElements = m }(MaxElements)
		MaxElements = fuzzLimit
		x, y, err := ReadARFF(bytes.NewReader(data), "fuzz", target)
		checkResult(t, x, y, true, err)
	})
}

func FuzzTable(f *testing.F) {
	addFile(f, "testdata/tiny.tsv", uint8(0))
	addFile(f, "testdata/header.csv", uint8(1))
	addFile(f, "testdata/coil2000/ticdata2000.txt", uint8(2))
	f.Add([]byte("1;2;3\n4;5;6\n"), uint8(3))
	f.Fuzz(func(t *testing.T, data []byte, mode uint8) {
		defer func(m int64) { MaxElements = m }(MaxElements)
		MaxElements = fuzzLimit
		// mode picks the options: separator, header mode, target choice.
		opt := TableOptions{
			Sep:    []rune{0, ' ', ',', ';', '\t'}[int(mode)%5],
			Header: HeaderMode(int(mode/5) % 3),
		}
		switch (mode / 15) % 4 {
		case 1:
			opt.NoTarget = true
		case 2:
			opt.Target = int(mode%4) + 1
		case 3:
			opt.TargetName = "x2"
		}
		x, y, err := ReadTable(bytes.NewReader(data), "fuzz", opt)
		checkResult(t, x, y, !opt.NoTarget, err)
	})
}
