package frames

import (
	"bytes"
	"errors"
	"math"
	"os"
	"strings"
	"testing"

	"github.com/credlab/credlab/internal/datasets"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

func wantNames(t *testing.T, df dataframe.DataFrame, want ...string) {
	t.Helper()
	got := df.Names()
	if strings.Join(got, "|") != strings.Join(want, "|") {
		t.Fatalf("columns %q, want %q", got, want)
	}
}

func wantFloats(t *testing.T, got, want []float64) {
	t.Helper()
	if len(got) != len(want) {
		t.Fatalf("%d values %v, want %v", len(got), got, want)
	}
	for i := range want {
		if !(got[i] == want[i] || math.IsNaN(got[i]) && math.IsNaN(want[i])) {
			t.Errorf("[%d] = %v, want %v (all %v)", i, got[i], want[i], got)
		}
	}
}

func wantErrText(t *testing.T, err error, parts ...string) {
	t.Helper()
	if err == nil {
		t.Fatalf("no error, want one containing %q", parts)
	}
	for _, p := range parts {
		if !strings.Contains(err.Error(), p) {
			t.Errorf("error %q does not contain %q", err, p)
		}
	}
}

func col(t *testing.T, df dataframe.DataFrame, name string) []float64 {
	t.Helper()
	v, err := Column(df, name)
	if err != nil {
		t.Fatal(err)
	}
	return v
}

func TestCSV(t *testing.T) {
	for _, path := range []string{"testdata/houses.csv", "testdata/houses.csv.gz"} {
		df, err := LoadCSV(path)
		if err != nil {
			t.Fatal(err)
		}
		wantNames(t, df, "rooms", "age", "city", "price")
		if df.Nrow() != 7 || df.Types()[2] != series.String {
			t.Errorf("%d rows, types %v", df.Nrow(), df.Types())
		}
		wantFloats(t, col(t, df, "age"), []float64{10, 5, 30, 2, math.NaN(), 15, 40})
	}
	df, err := ReadCSV(strings.NewReader("a;b\n1;x\n"), "semi.csv", CSVOptions{Comma: ';'})
	if err != nil || df.Ncol() != 2 {
		t.Fatalf("CSVOptions.Comma: %v %v", df, err)
	}
}

func TestCSVErrors(t *testing.T) {
	for _, c := range []struct {
		name, in string
		line     int
	}{
		{"empty", "", 0},
		{"header only", "a,b\n", 0},
		{"ragged", "a,b\n1,2\n3\n", 3},
		{"bad quote", "a,b\n\"1,2\n", 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadCSV(strings.NewReader(c.in), "bad.csv")
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != c.line || pe.File != "bad.csv" {
				t.Errorf("got %v (%T), want a *ParseError at bad.csv line %d", err, err, c.line)
			}
		})
	}
	if _, err := LoadCSV("testdata/nope.csv"); !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

func TestARFF(t *testing.T) {
	df, err := LoadARFF("testdata/cpu.arff")
	if err != nil {
		t.Fatal(err)
	}
	wantNames(t, df, "lread", "lwrite", "run queue", "mode", "usr")
	wantFloats(t, col(t, df, "lread"), []float64{6, 1, 0, 3, 2})
	wantFloats(t, col(t, df, "run queue"), []float64{1.2, 2.4, math.NaN(), 0, 1.5})
	wantFloats(t, col(t, df, "usr"), []float64{90, 88, 85, 77, 80})
	if got := df.Col("mode").Records(); strings.Join(got, ",") != "user,system,user,system,user" {
		t.Errorf("mode = %v", got)
	}
	// Omitted nominal values in a sparse row are the first level; string
	// attributes and quoted values with escapes are kept.
	df, err = ReadARFF(strings.NewReader("@relation r\n@attribute c {a,b}\n@attribute s string\n@attribute x numeric\n@data\n{2 1}\n'it\\'s',\"x, y\",3\n"), "q.arff")
	if err == nil {
		t.Fatal("level outside {a,b} accepted")
	}
	df, err = ReadARFF(strings.NewReader("@relation r\n@attribute c {a,'b c'}\n@attribute s string\n@attribute x numeric\n@data\n{2 1}\n'b c',\"x, y\",3\n"), "q.arff")
	if err != nil {
		t.Fatal(err)
	}
	if got := df.Col("c").Records(); got[0] != "a" || got[1] != "b c" {
		t.Errorf("c = %q", got)
	}
	if got := df.Col("s").Records(); got[0] != "NaN" || got[1] != "x, y" {
		t.Errorf("s = %q", got)
	}
}

func TestARFFErrors(t *testing.T) {
	hdr := "@relation r\n@attribute a numeric\n@attribute b {x,y}\n@data\n"
	for _, c := range []struct {
		name, in string
		line     int
		msg      string
	}{
		{"empty", "", 0, "no @data"},
		{"no attributes", "@relation r\n@data\n1\n", 2, "no @attribute"},
		{"no rows", hdr, 0, "no data rows"},
		{"bad keyword", "@relation r\n@foo\n", 2, "unexpected line"},
		{"bad type", "@attribute a relational\n", 1, "unsupported type"},
		{"no type", "@attribute a\n", 1, "has no type"},
		{"twice", "@attribute a numeric\n@attribute a real\n", 2, "declared twice"},
		{"open nominal", "@attribute a {x,y\n", 1, "missing closing"},
		{"repeated level", "@attribute a {x,x}\n", 1, "repeated level"},
		{"text after data", "@attribute a numeric\n@data junk\n", 2, "after @data"},
		{"count", hdr + "1,x,3\n", 5, "3 values, want 2"},
		{"number", hdr + "one,x\n", 5, "not a number"},
		{"infinite", hdr + "1e999,x\n", 5, "not a finite number"},
		{"level", hdr + "1,z\n", 5, "not one of its levels"},
		{"quote", hdr + "1,'x\n", 5, "unterminated quote"},
		{"after quote", hdr + "1,'x'y\n", 5, "after a closing quote"},
		{"sparse brace", hdr + "{0 1\n", 5, "missing closing"},
		{"sparse pair", hdr + "{0}\n", 5, "not an \"index value\" pair"},
		{"sparse index", hdr + "{7 1}\n", 5, "not in [0, 2)"},
		{"sparse order", hdr + "{1 x, 0 1}\n", 5, "strictly increasing"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadARFF(strings.NewReader(c.in), "bad.arff")
			var pe *datasets.ParseError
			if !errors.As(err, &pe) {
				t.Fatalf("error %v (%T) is not a *datasets.ParseError", err, err)
			}
			if pe.Line != c.line || !strings.Contains(err.Error(), c.msg) {
				t.Errorf("error %q: want line %d and %q", err, c.line, c.msg)
			}
		})
	}
	defer func(m int64) { datasets.MaxElements = m }(datasets.MaxElements)
	datasets.MaxElements = 3
	_, err := ReadARFF(strings.NewReader("@attribute a numeric\n@attribute b numeric\n@data\n1,2\n3,4\n"), "big.arff")
	wantErrText(t, err, "exceed the limit of 3")
}

func TestLIBSVMFrame(t *testing.T) {
	df, err := LoadLIBSVM("testdata/tiny.libsvm", 0)
	if err != nil {
		t.Fatal(err)
	}
	wantNames(t, df, "y", "x1", "x2", "x3", "x4")
	wantFloats(t, col(t, df, "y"), []float64{1.5, -1, 0})
	wantFloats(t, col(t, df, "x3"), []float64{2, 0, 0})
	df, err = ReadLIBSVM(strings.NewReader("1 2:1\n"), "s", 5)
	if err != nil || df.Ncol() != 6 {
		t.Fatalf("d = 5: %v, %v", df.Names(), err)
	}
	_, err = ReadLIBSVM(strings.NewReader("1 2:x\n"), "bad.svm", 0)
	wantErrText(t, err, "bad.svm:1", "not a number")
	_, err = LoadLIBSVM("testdata/tiny.libsvm", 2)
	wantErrText(t, err, "exceeds d = 2")
}

func TestIDXFrame(t *testing.T) {
	df, err := LoadIDX("testdata/tiny-images-idx3-ubyte", "testdata/tiny-labels-idx1-ubyte.gz")
	if err != nil {
		t.Fatal(err)
	}
	wantNames(t, df, "label", "pixel0", "pixel1", "pixel2", "pixel3")
	wantFloats(t, col(t, df, "label"), []float64{7, 2, 9})
	wantFloats(t, col(t, df, "pixel1"), []float64{255, 2, 100})
	df, err = LoadIDX("testdata/tiny-images-idx3-ubyte", "")
	if err != nil {
		t.Fatal(err)
	}
	wantNames(t, df, "pixel0", "pixel1", "pixel2", "pixel3")
	img, _ := os.ReadFile("testdata/tiny-images-idx3-ubyte")
	_, err = ReadIDX(bytes.NewReader(img), bytes.NewReader(img))
	wantErrText(t, err, "want one dimension")
	lab := []byte{0, 0, 8, 1, 0, 0, 0, 2, 1, 2}
	_, err = ReadIDX(bytes.NewReader(img), bytes.NewReader(lab))
	wantErrText(t, err, "3 images but 2 labels")
	_, err = ReadIDX(bytes.NewReader(img[:20]), nil)
	wantErrText(t, err, "truncated data")
	_, err = LoadIDX("testdata/nope", "")
	if !errors.Is(err, os.ErrNotExist) {
		t.Errorf("missing file: %v", err)
	}
}

// fuzzCheck verifies a loader's frame: an error and no frame, or a frame
// without error whose columns all have its row count.
func fuzzCheck(t *testing.T, df dataframe.DataFrame, err error) {
	if err != nil {
		if df.Ncol() != 0 {
			t.Fatalf("frame returned with error %v", err)
		}
		return
	}
	if df.Err != nil {
		t.Fatalf("frame carries an error: %v", df.Err)
	}
	n, d := df.Dims()
	if n == 0 || d == 0 {
		t.Fatalf("empty frame %d x %d without error", n, d)
	}
	for _, name := range df.Names() {
		if df.Col(name).Len() != n {
			t.Fatalf("column %q has %d rows, want %d", name, df.Col(name).Len(), n)
		}
	}
}

func addSeed(f *testing.F, path string) {
	b, err := os.ReadFile(path)
	if err != nil {
		f.Fatal(err)
	}
	f.Add(b)
}

func FuzzReadARFF(f *testing.F) {
	addSeed(f, "testdata/cpu.arff")
	f.Add([]byte("@attribute c {a,'b c'}\n@attribute s string\n@data\n{1 'x'}\n'b c',\"x, y\"\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer func(m int64) { datasets.MaxElements = m }(datasets.MaxElements)
		datasets.MaxElements = 1 << 16
		df, err := ReadARFF(bytes.NewReader(data), "fuzz")
		fuzzCheck(t, df, err)
	})
}

func FuzzReadCSV(f *testing.F) {
	addSeed(f, "testdata/houses.csv")
	f.Add([]byte("a,b\n1,true\nNaN,false\n"))
	// Issue 13's cases: a bad cell, an overflow, a BOM, repeated, empty
	// and NUL names, infinities.
	f.Add([]byte("a,b,y\n1,2,3\n4,abc,6\n7,8,9\n"))
	f.Add([]byte("a,b,y\n1,1e999,3\n4,5,6\n"))
	f.Add([]byte("\ufeffa,y\n1,2\n"))
	f.Add([]byte("a,a,y\n1,2,3\n"))
	f.Add([]byte("a,,y\n1,2,3\n"))
	f.Add([]byte("a\x00\x00,y\n1,2\n"))
	f.Add([]byte("a,y\nInf,NaN\n-inf,NA\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer func(m int64) { datasets.MaxElements = m }(datasets.MaxElements)
		datasets.MaxElements = 1 << 16
		df, err := ReadCSV(bytes.NewReader(data), "fuzz.csv")
		fuzzCheck(t, df, err)
		if err == nil {
			seen := map[string]bool{}
			for _, n := range df.Names() {
				if n == "" || seen[n] || strings.ContainsAny(n, "\x00\ufeff") {
					t.Fatalf("column name %q accepted (names %q)", n, df.Names())
				}
				seen[n] = true
			}
		}
		var ce *CellError
		if errors.As(err, &ce) && (ce.Line < 2 || ce.Column < 1 || ce.Row < 0) {
			t.Fatalf("cell error without a place: %+v", ce)
		}
	})
}

func FuzzReadIDX(f *testing.F) {
	img, err := os.ReadFile("testdata/tiny-images-idx3-ubyte")
	if err != nil {
		f.Fatal(err)
	}
	f.Add(img, []byte{0, 0, 8, 1, 0, 0, 0, 3, 7, 2, 9})
	f.Add(img, []byte{})
	f.Fuzz(func(t *testing.T, images, labels []byte) {
		defer func(m int64) { datasets.MaxElements = m }(datasets.MaxElements)
		datasets.MaxElements = 1 << 16
		var lr *bytes.Reader
		if len(labels) > 0 {
			lr = bytes.NewReader(labels)
		}
		var df dataframe.DataFrame
		if lr == nil {
			df, err = ReadIDX(bytes.NewReader(images), nil)
		} else {
			df, err = ReadIDX(bytes.NewReader(images), lr)
		}
		fuzzCheck(t, df, err)
	})
}
