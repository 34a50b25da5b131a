package datasets

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

func wantMatrix(t *testing.T, x *mat.Dense, want [][]float64) {
	t.Helper()
	r, c := x.Dims()
	if r != len(want) || c != len(want[0]) {
		t.Fatalf("dims %d x %d, want %d x %d", r, c, len(want), len(want[0]))
	}
	for i := range want {
		for j, v := range want[i] {
			if x.At(i, j) != v {
				t.Errorf("x[%d,%d] = %v, want %v", i, j, x.At(i, j), v)
			}
		}
	}
}

func wantSlice(t *testing.T, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("len %d, want %d: %v", len(got), len(want), got)
	}
	for i := range want {
		if got[i] != want[i] {
			t.Errorf("[%d] = %v, want %v", i, got[i], want[i])
		}
	}
}

// wantErr checks that err is a *ParseError at line with msg in its text.
func wantErr(t *testing.T, err error, line int, msg string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want line %d %q", line, msg)
	}
	var pe *ParseError
	if !errors.As(err, &pe) {
		t.Fatalf("error %v (%T) is not a *ParseError", err, err)
	}
	if pe.Line != line || !strings.Contains(err.Error(), msg) {
		t.Errorf("error %q: want line %d and %q", err, line, msg)
	}
}

func TestLIBSVM(t *testing.T) {
	want := [][]float64{{0.5, 0, 2, 0}, {0, 1, 0, 0}, {0, 0, 0, -150}, {0, 0, 0, 0}}
	for _, name := range []string{"tiny.libsvm", "tiny.libsvm.gz"} {
		x, y, err := LoadLIBSVM(filepath.Join("testdata", name), 0)
		if err != nil {
			t.Fatal(err)
		}
		wantMatrix(t, x, want)
		wantSlice(t, y, []float64{1, -1, 0, 2.5})
	}
	x, _, err := LoadLIBSVM("testdata/tiny.libsvm", 6)
	if err != nil {
		t.Fatal(err)
	}
	if _, c := x.Dims(); c != 6 {
		t.Errorf("explicit d = 6 gave %d columns", c)
	}
	x, y, err := LoadLIBSVM("testdata/crlf.libsvm", 0)
	if err != nil {
		t.Fatal(err)
	}
	wantMatrix(t, x, [][]float64{{1, 1, 0}, {0, 0, 1}})
	wantSlice(t, y, []float64{-1, 1})
}

func TestLIBSVMErrors(t *testing.T) {
	for _, c := range []struct {
		in   string
		d    int
		line int
		msg  string
	}{
		{"", 0, 0, "no data rows"},
		{"# only a comment\n\n", 0, 0, "no data rows"},
		{"1\n-1\n", 0, 0, "cannot infer d"},
		{"1 1:1\n2:1 3:1\n", 0, 2, "missing label"},
		{"1 1:1\n1 0:1\n", 0, 2, "1-based"},
		{"1 3:1 2:1\n", 0, 1, "strictly increasing"},
		{"1 2:1 2:1\n", 0, 1, "strictly increasing"},
		{"1 1:1 4:1\n", 3, 1, "exceeds d = 3"},
		{"1 x:1\n", 0, 1, "not an integer"},
		{"1 17\n", 0, 1, "not an index:value pair"},
		{"1 99999999999999999999:1\n", 0, 1, "not an integer"},
		{"1 999999999999:1\n", 0, 1, "exceeds the limit"},
		{"1 1:1\n", -2, 0, "must be positive"},
	} {
		_, _, err := ReadLIBSVM(strings.NewReader(c.in), "in.svm", c.d)
		wantErr(t, err, c.line, c.msg)
		if err != nil && !strings.Contains(err.Error(), "in.svm") {
			t.Errorf("error %q does not name the file", err)
		}
	}
}

func TestARFF(t *testing.T) {
	x, y, err := LoadARFF("testdata/tiny.arff", "")
	if err != nil {
		t.Fatal(err)
	}
	wantMatrix(t, x, [][]float64{{1, 2.5}, {-3, 4}, {7, 0}})
	wantSlice(t, y, []float64{10, 20, 30})

	x, y, err = LoadARFF("testdata/tiny.arff", "b c")
	if err != nil {
		t.Fatal(err)
	}
	wantMatrix(t, x, [][]float64{{1, 10}, {-3, 20}, {7, 30}})
	wantSlice(t, y, []float64{2.5, 4, 0})

	if _, y, err = LoadARFF("testdata/tiny.arff", "A"); err != nil {
		t.Fatal(err)
	}
	wantSlice(t, y, []float64{1, -3, 7})

	_, _, err = LoadARFF("testdata/nominal.arff", "")
	wantErr(t, err, 3, `attribute "colour" is nominal`)
	_, _, err = LoadARFF("testdata/tiny.arff", "nope")
	wantErr(t, err, 0, `no attribute named "nope"`)
}

func TestARFFErrors(t *testing.T) {
	const hdr = "@relation r\n@attribute a numeric\n@attribute b numeric\n@data\n"
	for _, c := range []struct {
		in   string
		line int
		msg  string
	}{
		{"", 0, "no @data section"},
		{"@relation r\n@attribute a numeric\n", 0, "no @data section"},
		{hdr, 0, "no data rows"},
		{"@relation r\n@attribute a numeric\n@data\n1\n", 0, "need at least one feature"},
		{"@attribute s string\n", 1, `type "string"`},
		{"@attribute d date 'yyyy'\n", 1, `type "date 'yyyy'"`},
		{"@attribute 'a numeric\n", 1, "unterminated"},
		{"@attribute a\n", 1, "has no type"},
		{"@attribute\n", 1, "missing attribute name"},
		{"hello\n", 1, "unexpected line"},
		{"@data extra\n", 1, "unexpected text after @data"},
		{hdr + "1,2\n1,2,3\n", 6, "3 values, want 2"},
		{hdr + "1,?\n", 5, `attribute "b": missing value "?"`},
		{hdr + "1,\n", 5, "empty field"},
		{hdr + "{0 1, 1 2\n", 5, "missing closing"},
		{hdr + "{0 1 2}\n", 5, "not an \"index value\" pair"},
		{hdr + "{2 1}\n", 5, "is not in [0, 2)"},
		{hdr + "{1 1, 0 2}\n", 5, "strictly increasing"},
	} {
		_, _, err := ReadARFF(strings.NewReader(c.in), "in.arff", "")
		wantErr(t, err, c.line, c.msg)
	}
}

func TestMaxElements(t *testing.T) {
	defer func(m int64) { MaxElements = m }(MaxElements)
	MaxElements = 5
	_, _, err := ReadLIBSVM(strings.NewReader("1 1:1\n1 3:1\n"), "big.svm", 0)
	wantErr(t, err, 2, "exceed the limit of 5")
	_, _, err = ReadARFF(strings.NewReader("@attribute a numeric\n@attribute b numeric\n@data\n1,2\n3,4\n5,6\n"), "big.arff", "")
	wantErr(t, err, 6, "exceed the limit of 5")
}

func TestOpenErrors(t *testing.T) {
	if _, _, err := LoadLIBSVM("testdata/does-not-exist", 0); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
	dir := t.TempDir()
	bad := filepath.Join(dir, "bad.gz")
	if err := os.WriteFile(bad, []byte("not gzip"), 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err := LoadLIBSVM(bad, 0)
	wantErr(t, err, 0, "not a valid gzip file")

	// A truncated gzip stream is a read error naming the line.
	good, err := os.ReadFile("testdata/tiny.libsvm.gz")
	if err != nil {
		t.Fatal(err)
	}
	trunc := filepath.Join(dir, "trunc.gz")
	if err := os.WriteFile(trunc, good[:len(good)-6], 0o644); err != nil {
		t.Fatal(err)
	}
	_, _, err = LoadLIBSVM(trunc, 0)
	if err == nil || !strings.Contains(err.Error(), "read error") {
		t.Errorf("truncated gzip: %v", err)
	}
}
