package datasets

import (
	"errors"
	"math"
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

func TestTable(t *testing.T) {
	x, y, err := LoadTable("testdata/tiny.tsv", TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantMatrix(t, x, [][]float64{{1, 2}, {3, 4}, {5, 6}})
	wantSlice(t, y, []float64{0, 1, 0})

	x, y, err = LoadTable("testdata/tiny.tsv", TableOptions{Target: 1})
	if err != nil {
		t.Fatal(err)
	}
	wantMatrix(t, x, [][]float64{{2, 0}, {4, 1}, {6, 0}})
	wantSlice(t, y, []float64{1, 3, 5})

	x, y, err = LoadTable("testdata/tiny.tsv", TableOptions{NoTarget: true})
	if err != nil || y != nil {
		t.Fatalf("NoTarget: y = %v, err = %v", y, err)
	}
	wantMatrix(t, x, [][]float64{{1, 2, 0}, {3, 4, 1}, {5, 6, 0}})

	x, y, err = LoadTable("testdata/header.csv", TableOptions{})
	if err != nil {
		t.Fatal(err)
	}
	wantMatrix(t, x, [][]float64{{1.5, 2}, {4, 0.5}})
	wantSlice(t, y, []float64{3, 6})

	x, y, err = LoadTable("testdata/header.csv", TableOptions{TargetName: "x1"})
	if err != nil {
		t.Fatal(err)
	}
	wantMatrix(t, x, [][]float64{{2, 3}, {0.5, 6}})
	wantSlice(t, y, []float64{1.5, 4})
}

func TestTableErrors(t *testing.T) {
	for _, c := range []struct {
		in   string
		opt  TableOptions
		line int
		msg  string
	}{
		{"", TableOptions{}, 0, "no data rows"},
		{"a,b\n", TableOptions{}, 0, "no data rows"},
		{"1 2\n3\n", TableOptions{}, 2, "1 fields, want 2 as in the first row"},
		{"a,b\n1,2,3\n", TableOptions{}, 2, "want 2 as in the header"},
		{"1,2\n3,x\n", TableOptions{}, 2, `column 2: "x" is not a number`},
		{"a,b\n1,NA\n", TableOptions{}, 2, `column 2 ("b"): missing value "NA"`},
		{"1\t\t2\n", TableOptions{Sep: '\t'}, 1, "empty field"},
		{"1\n2\n", TableOptions{}, 0, "need at least one feature"},
		{"1 2\n", TableOptions{Target: 3}, 0, "target column 3, but the table has 2"},
		{"1 2\n", TableOptions{Target: -1}, 0, "must be 1-based"},
		{"1 2\n", TableOptions{TargetName: "y"}, 0, "no header line"},
		{"a b\n1 2\n", TableOptions{TargetName: "y"}, 0, `no column named "y"`},
		{"a b\n1 2\n", TableOptions{Header: HeaderNone}, 1, `"a" is not a number`},
		{"1 2\n", TableOptions{NoTarget: true, Target: 1}, 0, "NoTarget set together"},
	} {
		_, _, err := ReadTable(strings.NewReader(c.in), "in.txt", c.opt)
		wantErr(t, err, c.line, c.msg)
	}
}

func TestMaxElements(t *testing.T) {
	defer func(m int64) { MaxElements = m }(MaxElements)
	MaxElements = 5
	_, _, err := ReadTable(strings.NewReader("1 2\n3 4\n5 6\n"), "big.txt", TableOptions{})
	wantErr(t, err, 3, "exceed the limit of 5")
	_, _, err = ReadLIBSVM(strings.NewReader("1 1:1\n1 3:1\n"), "big.svm", 0)
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

func TestKnownStandIns(t *testing.T) {
	s, err := LoadCOIL2000("testdata/coil2000")
	if err != nil {
		t.Fatal(err)
	}
	if r, c := s.XTrain.Dims(); r != 3 || c != 85 {
		t.Errorf("coil2000 train %d x %d", r, c)
	}
	wantSlice(t, s.YTrain, []float64{0, 1, 0})
	wantSlice(t, s.YTest, []float64{1, 0, 0})

	s, err = LoadA9A("testdata/a9a")
	if err != nil {
		t.Fatal(err)
	}
	if s.XTrain.At(0, 122) != 1 || s.XTest.At(0, 121) != 1 {
		t.Error("a9a: last features not set")
	}
	if _, c := s.XTest.Dims(); c != 123 {
		t.Errorf("a9a.t has %d columns, want 123", c)
	}

	x, y, err := LoadCPUSmall("testdata/cpusmall") // cpu_small.arff.gz
	if err != nil {
		t.Fatal(err)
	}
	if r, c := x.Dims(); r != 2 || c != 12 {
		t.Errorf("cpusmall %d x %d", r, c)
	}
	wantSlice(t, y, []float64{90, 50})
}

// dataDir is the staged data, ../shared/data from the repository root,
// or $CREDLAB_DATA.
func dataDir(t *testing.T) string {
	d := os.Getenv("CREDLAB_DATA")
	if d == "" {
		d = filepath.Join("..", "..", "..", "shared", "data")
	}
	if _, err := os.Stat(d); err != nil {
		t.Skipf("staged data not found at %s (set CREDLAB_DATA)", d)
	}
	return d
}

func count(y []float64, v float64) int {
	c := 0
	for _, u := range y {
		if u == v {
			c++
		}
	}
	return c
}

// TestStagedData checks the shapes and label counts documented in the
// staged data's README files.
func TestStagedData(t *testing.T) {
	dir := dataDir(t)
	s, err := LoadCOIL2000(filepath.Join(dir, "coil2000"))
	if err != nil {
		t.Fatal(err)
	}
	if r, c := s.XTrain.Dims(); r != 5822 || c != 85 || count(s.YTrain, 1) != 348 {
		t.Errorf("coil2000 train %d x %d, %d positives", r, c, count(s.YTrain, 1))
	}
	if r, _ := s.XTest.Dims(); r != 4000 || count(s.YTest, 1) != 238 {
		t.Errorf("coil2000 test %d rows, %d positives", r, count(s.YTest, 1))
	}

	s, err = LoadA9A(filepath.Join(dir, "a9a"))
	if err != nil {
		t.Fatal(err)
	}
	if r, _ := s.XTrain.Dims(); r != 32561 || count(s.YTrain, 1) != 7841 || count(s.YTrain, -1) != 24720 {
		t.Errorf("a9a train %d rows, labels %d/%d", r, count(s.YTrain, 1), count(s.YTrain, -1))
	}
	if r, _ := s.XTest.Dims(); r != 16281 || count(s.YTest, 1) != 3846 {
		t.Errorf("a9a.t %d rows, %d positives", r, count(s.YTest, 1))
	}

	x, y, err := LoadCPUSmall(filepath.Join(dir, "cpusmall"))
	if err != nil {
		t.Fatal(err)
	}
	if r, c := x.Dims(); r != 8192 || c != 12 {
		t.Errorf("cpusmall %d x %d", r, c)
	}
	for _, v := range y {
		if v < 0 || v > 100 || math.IsNaN(v) {
			t.Fatalf("cpusmall usr = %v outside [0, 100]", v)
		}
	}
}
