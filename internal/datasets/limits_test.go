package datasets

import (
	"bytes"
	"errors"
	"math"
	"strconv"
	"strings"
	"testing"

	"github.com/credlab/credlab/internal/errs"
	"github.com/credlab/credlab/internal/memlimit"
)

// withLimit sets the memory limit for the rest of the test.
func withLimit(t *testing.T, limit int64) {
	t.Helper()
	old := memlimit.Override
	memlimit.Override = func() int64 { return limit }
	t.Cleanup(func() { memlimit.Override = old })
}

// wantTooLarge checks that err is a *errs.TooLargeError of rows x cols
// (a negative want is not checked) under the limit.
func wantTooLarge(t *testing.T, err error, rows, cols int) {
	t.Helper()
	var tl *errs.TooLargeError
	if !errors.As(err, &tl) {
		t.Fatalf("got %v (%T), want a *errs.TooLargeError", err, err)
	}
	if (rows >= 0 && tl.Rows != rows) || (cols >= 0 && tl.Cols != cols) || !(tl.Bytes > float64(tl.Limit)) || tl.Limit != memlimit.Limit() {
		t.Errorf("TooLargeError %+v, want %d x %d over the limit %d", tl, rows, cols, memlimit.Limit())
	}
}

// manyRows returns n lines made by line(i).
func manyRows(n int, line func(i int) string) string {
	var b strings.Builder
	for i := 0; i < n; i++ {
		b.WriteString(line(i))
		b.WriteByte('\n')
	}
	return b.String()
}

// TestMemoryLimit covers the loaders' audit: each loader checks the memory
// limit before it allocates what grows with the data, and refuses with a
// *errs.TooLargeError (not the fixed MaxElements cap alone).
func TestMemoryLimit(t *testing.T) {
	arffHdr := "@relation r\n@attribute a numeric\n@attribute s string\n@attribute y numeric\n@data\n"
	cases := []struct {
		name       string
		limit      int64
		read       func() error
		rows, cols int
	}{
		{"libsvm wide index", 64 << 20, func() error {
			_, _, err := ReadLIBSVM(strings.NewReader("1 1:1 100000000:1\n2 1:2\n"), "wide.libsvm", 0)
			return err
		}, 2, 100000000},
		{"libsvm wide with the frame's columns", 1 << 20, func() error {
			// 2 x 20000 values: 320 KB as a matrix, 1.6 MB with the
			// frame's 32 bytes more each.
			_, _, err := ReadLIBSVM(strings.NewReader("1 1:1 20000:1\n2 1:2\n"), "w.libsvm", 0, Options{NumBytes: 32})
			return err
		}, 2, 20000},
		{"libsvm many rows", 1 << 12, func() error {
			_, _, err := ReadLIBSVM(strings.NewReader(manyRows(1000, func(i int) string { return "1 1:1 2:2 3:3" })), "long.libsvm", 0)
			return err
		}, -1, 3},
		{"idx declared 2 x 4000 x 4000", 64 << 20, func() error {
			// Only the header: the check comes before any data is read.
			_, err := ReadIDX(bytes.NewReader(idxBytes(8, []int32{2, 4000, 4000}, nil)), "big.idx")
			return err
		}, 2, 16000000},
		{"idx with the frame's columns", 1 << 20, func() error {
			// 100 x 900 values: 720 KB as float64, 3.6 MB with the frame.
			_, err := ReadIDX(bytes.NewReader(idxBytes(8, []int32{100, 30, 30}, make([]byte, 90000))), "f.idx", Options{NumBytes: 32})
			return err
		}, 100, 900},
		{"arff rows", 1 << 12, func() error {
			_, _, err := ReadARFFColumns(strings.NewReader(arffHdr+manyRows(1000, func(i int) string { return strconv.Itoa(i) + ",'text',1" })), "long.arff", false)
			return err
		}, -1, 3},
		{"arff numeric", 1 << 12, func() error {
			_, _, err := ReadARFF(strings.NewReader("@attribute a numeric\n@attribute y numeric\n@data\n"+manyRows(1000, func(i int) string { return "1,2" })), "n.arff", "")
			return err
		}, -1, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			withLimit(t, c.limit)
			wantTooLarge(t, c.read(), c.rows, c.cols)
		})
	}
	// Within the limit, without the caller's bytes, the same data is read.
	withLimit(t, 1<<20)
	if _, _, err := ReadLIBSVM(strings.NewReader("1 1:1 20000:1\n2 1:2\n"), "ok.libsvm", 0); err != nil {
		t.Errorf("libsvm within the limit: %v", err)
	}
	if _, err := ReadIDX(bytes.NewReader(idxBytes(8, []int32{100, 30, 30}, make([]byte, 90000))), "ok.idx"); err != nil {
		t.Errorf("idx within the limit: %v", err)
	}
}

// TestIDXGrowth reads an array larger than the first block, which is then
// allocated once at its declared size.
func TestIDXGrowth(t *testing.T) {
	n := idxPrealloc + 3
	data := make([]byte, n)
	for i := range data {
		data[i] = byte(i)
	}
	a, err := ReadIDX(bytes.NewReader(idxBytes(8, []int32{int32(n)}, data)), "long.idx")
	if err != nil {
		t.Fatal(err)
	}
	if len(a.Data) != n || cap(a.Data) != n || a.Data[n-1] != float64(byte(n-1)) || a.Data[idxPrealloc] != float64(idxPrealloc%256) {
		t.Errorf("%d values (capacity %d), last %v", len(a.Data), cap(a.Data), a.Data[n-1])
	}
}

// TestCells covers bad values in ARFF and LIBSVM data: a *CellError with
// its line, column, name and row, or a missing value with BadAsMissing; and
// control characters in ARFF string values, a *ParseError with its line and
// column.
func TestCells(t *testing.T) {
	const hdr = "@relation r\n@attribute a numeric\n@attribute s string\n@attribute c {x,y}\n@attribute b real\n@data\n"
	type want struct {
		line, col int
		name      string
		row       int
		value     string
	}
	cases := []struct {
		name string
		read func(o Options) error
		cell *want // a *CellError
		pe   *want // else a *ParseError (row and value not checked)
	}{
		{"arff abc", arff(hdr + "1,s,x,2\n3,t,y,abc\n"), &want{8, 4, "b", 1, "abc"}, nil},
		{"arff 1e999", arff(hdr + "1e999,s,x,2\n"), &want{7, 1, "a", 0, "1e999"}, nil},
		{"arff inf", arff(hdr + "1,s,x,inf\n"), &want{7, 4, "b", 0, "inf"}, nil},
		{"arff sparse", arff(hdr + "{3 x}\n"), &want{7, 4, "b", 0, "x"}, nil},
		{"arff empty", arff(hdr + "1,s,x,\n"), nil, &want{line: 7, col: 4, name: "b"}},
		{"arff NUL in a string", arff(hdr + "1,'re\x00d',x,2\n"), nil, &want{line: 7, col: 2, name: "s"}},
		{"arff control in a string", arff(hdr + "1,s,x,2\n1,a\x01b,x,2\n"), nil, &want{line: 8, col: 2, name: "s"}},
		{"arff level", arff(hdr + "1,s,z,2\n"), nil, &want{line: 7, col: 3, name: "c"}},
		{"arff NUL in a level", arff("@attribute c {x,'y\x00'}\n@data\nx\n"), nil, &want{line: 1}},
		{"libsvm label", libsvm("1 1:1\nabc 2:1\n"), &want{2, 1, "y", 1, "abc"}, nil},
		{"libsvm value", libsvm("1 1:1 3:x\n"), &want{1, 3, "x3", 0, "x"}, nil},
		{"libsvm 1e999", libsvm("1 1:1\n2 2:1e999\n"), &want{2, 2, "x2", 1, "1e999"}, nil},
		{"libsvm NaN", libsvm("1 1:NaN\n"), &want{1, 2, "x1", 0, "NaN"}, nil},
		{"libsvm inf", libsvm("1 1:inf\n"), &want{1, 2, "x1", 0, "inf"}, nil},
		{"libsvm after a qid", libsvm("1 qid:3 2:?\n"), &want{1, 3, "x2", 0, "?"}, nil},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			err := c.read(Options{})
			if c.cell != nil {
				var ce *CellError
				if !errors.As(err, &ce) {
					t.Fatalf("got %v (%T), want a *CellError", err, err)
				}
				w := c.cell
				if ce.File != "in" || ce.Line != w.line || ce.Column != w.col || ce.Name != w.name || ce.Row != w.row || ce.Value != w.value {
					t.Errorf("got %+v, want %+v", *ce, *w)
				}
				// BadAsMissing reads it as missing.
				if err := c.read(Options{BadAsMissing: true}); err != nil {
					t.Errorf("BadAsMissing: %v", err)
				}
				return
			}
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != c.pe.line || pe.Column != c.pe.col || pe.Name != c.pe.name {
				t.Fatalf("got %v (%T), want a *ParseError at line %d, column %d (%q)", err, err, c.pe.line, c.pe.col, c.pe.name)
			}
			if c.name == "arff empty" {
				if err := c.read(Options{BadAsMissing: true}); err != nil {
					t.Errorf("BadAsMissing: %v", err)
				}
			} else if err := c.read(Options{BadAsMissing: true}); !errors.As(err, &pe) {
				t.Errorf("BadAsMissing: %v, want the *ParseError still", err)
			}
		})
	}
	// The values read as missing are NaN, and count as missing values.
	attrs, _, err := ReadARFFColumns(strings.NewReader(hdr+"1,s,x,2\n3,t,y,abc\n"), "in", false, Options{BadAsMissing: true})
	if err != nil || !math.IsNaN(attrs[3].Nums[1]) || attrs[3].Nums[0] != 2 || attrs[3].MissingLine != 8 {
		t.Errorf("BadAsMissing: %v, b = %v", err, attrs[3])
	}
	x, y, err := ReadLIBSVM(strings.NewReader("1 1:1 3:x\nz 2:1\n"), "in", 0, Options{BadAsMissing: true})
	if err != nil || !math.IsNaN(x.At(0, 2)) || !math.IsNaN(y[1]) || x.At(1, 1) != 1 {
		t.Errorf("BadAsMissing: %v, x %v, y %v", err, x, y)
	}
}

func arff(in string) func(Options) error {
	return func(o Options) error {
		_, _, err := ReadARFFColumns(strings.NewReader(in), "in", false, o)
		return err
	}
}

func libsvm(in string) func(Options) error {
	return func(o Options) error {
		_, _, err := ReadLIBSVM(strings.NewReader(in), "in", 0, o)
		return err
	}
}

// TestARFFNumberErrors checks that a value out of the float64 range and one
// that is not a number are both a *CellError, decided by strconv's error
// and not by its text, while an underflow rounds to zero.
func TestARFFNumberErrors(t *testing.T) {
	const hdr = "@attribute a numeric\n@attribute y numeric\n@data\n"
	for _, v := range []string{"1e999", "-1e999", "abc", "1e", "NaN", "+Inf"} {
		_, _, err := ReadARFF(strings.NewReader(hdr+v+",1\n"), "in", "")
		var ce *CellError
		if !errors.As(err, &ce) || ce.Value != v || ce.Line != 4 || ce.Column != 1 {
			t.Errorf("%s: got %v (%T), want a *CellError", v, err, err)
		}
	}
	x, _, err := ReadARFF(strings.NewReader(hdr+"1e-400,1\n"), "in", "")
	if err != nil || x.At(0, 0) != 0 {
		t.Errorf("underflow: %v", err)
	}
}
