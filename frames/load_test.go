package frames

import (
	"bytes"
	"encoding/binary"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/credlab/credlab/credlab"
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
	wantType[*ParseError]()(t, err)
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
		what     string // the problem, for the reader: the test checks the type and line
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
			if pe.Line != c.line {
				t.Errorf("error %q: line %d, want line %d (%s)", err, pe.Line, c.line, c.what)
			}
		})
	}
	defer func(m int64) { datasets.MaxElements = m }(datasets.MaxElements)
	datasets.MaxElements = 3
	_, err := ReadARFF(strings.NewReader("@attribute a numeric\n@attribute b numeric\n@data\n1,2\n3,4\n"), "big.arff")
	wantType[*ParseError]()(t, err)
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
	var ce *CellError
	if !errors.As(err, &ce) || ce.File != "bad.svm" || ce.Line != 1 || ce.Column != 2 || ce.Name != "x2" || ce.Row != 0 {
		t.Errorf("bad value: %v (%T), want a *CellError at bad.svm:1:2, column x2", err, err)
	}
	df, err = ReadLIBSVM(strings.NewReader("1 2:x\n"), "bad.svm", 0, LIBSVMOptions{BadAsMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	wantFloats(t, col(t, df, "x2"), []float64{math.NaN()})
	_, err = LoadLIBSVM("testdata/tiny.libsvm", 2)
	if pe, ok := asError[*ParseError](t, err); ok && pe.Line != 2 {
		t.Errorf("feature index beyond d: line %d, want 2 (%v)", pe.Line, err)
	}
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
	wantIs(credlab.ErrShape)(t, err)
	lab := []byte{0, 0, 8, 1, 0, 0, 0, 2, 1, 2}
	_, err = ReadIDX(bytes.NewReader(img), bytes.NewReader(lab))
	wantIs(credlab.ErrShape)(t, err)
	_, err = ReadIDX(bytes.NewReader(img[:20]), nil)
	wantType[*ParseError]()(t, err)
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
	// A bad number, a control character in a string value.
	f.Add([]byte("@attribute a numeric\n@attribute s string\n@data\n1,x\nabc,y\n1e999,z\n"))
	f.Add([]byte("@attribute a numeric\n@attribute s string\n@data\n1,'re\x00d'\n2,r\x01\n"))
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
	// A bad cell, an overflow, a BOM, repeated, empty
	// and NUL names, infinities.
	f.Add([]byte("a,b,y\n1,2,3\n4,abc,6\n7,8,9\n"))
	f.Add([]byte("a,b,y\n1,1e999,3\n4,5,6\n"))
	f.Add([]byte("\ufeffa,y\n1,2\n"))
	f.Add([]byte("a,a,y\n1,2,3\n"))
	f.Add([]byte("a,,y\n1,2,3\n"))
	f.Add([]byte("a\x00\x00,y\n1,2\n"))
	f.Add([]byte("a,y\nInf,NaN\n-inf,NA\n"))
	// A control character in a string cell, and in a quoted one.
	f.Add([]byte("c,y\nre\x00d,1\nblue,2\n"))
	f.Add([]byte("c,y\n\"a\nb\",1\n\"a\x01\",2\n"))
	// Fields separated by blanks (CSVOptions.Whitespace).
	f.Add([]byte(" 6.0 -1\t0.5\r\n\n5 1  x\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer func(m int64) { datasets.MaxElements = m }(datasets.MaxElements)
		datasets.MaxElements = 1 << 16
		for _, o := range []CSVOptions{{}, {Whitespace: true}} {
			df, err := ReadCSV(bytes.NewReader(data), "fuzz.csv", o)
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

// writeTemp writes a file in a temporary directory and returns its path.
func writeTemp(t *testing.T, name string, data []byte) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), name)
	if err := os.WriteFile(path, data, 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// idxHeader is an IDX header of unsigned bytes with the given sizes,
// followed by data.
func idxHeader(dims []uint32, data []byte) []byte {
	b := []byte{0, 0, 8, byte(len(dims))}
	for _, d := range dims {
		b = binary.BigEndian.AppendUint32(b, d)
	}
	return append(b, data...)
}

// TestLoadMemoryLimit covers the audit of the loaders: under a small
// memory limit each format is refused with a *credlab.TooLargeError before
// the dense matrix or the frame is allocated, counting the frame's columns.
func TestLoadMemoryLimit(t *testing.T) {
	var long strings.Builder
	long.WriteString("@attribute a numeric\n@attribute c {x,y}\n@data\n")
	for i := 0; i < 2000; i++ {
		long.WriteString("1.5,x\n")
	}
	cases := []struct {
		name, file string
		data       []byte
		opt        LoadOptions
		limit      int64
		rows, cols int // of the error; -1: not checked
	}{
		{"libsvm index 1e8", "wide.libsvm", []byte("1 1:1 100000000:1\n2 1:2\n"), LoadOptions{}, 64 << 20, 2, 100000000},
		// 2 x 20000 is 320 KB as a matrix, 1.6 MB with the frame's columns.
		{"libsvm with the frame", "w.libsvm", []byte("1 1:1 20000:1\n2 1:2\n"), LoadOptions{}, 1 << 20, 2, 20000},
		// Only the header of 2 images of 4000 x 4000 (32 MB of data).
		{"idx 2 x 4000 x 4000", "big-images-idx3-ubyte", idxHeader([]uint32{2, 4000, 4000}, nil), LoadOptions{}, 64 << 20, 2, 16000000},
		// 100 images of 30 x 30: 720 KB as float64, 3.6 MB as a frame.
		{"idx with the frame", "f-images-idx3-ubyte", idxHeader([]uint32{100, 30, 30}, make([]byte, 90000)), LoadOptions{}, 1 << 20, 100, 900},
		{"idx labels", "l-images-idx3-ubyte", idxHeader([]uint32{1, 2, 2}, make([]byte, 4)), LoadOptions{Labels: "labels"}, 1 << 20, 200000, 1},
		{"arff rows", "long.arff", []byte(long.String()), LoadOptions{}, 16 << 10, -1, 2},
		{"csv rows", "long.csv", []byte("a,b\n" + strings.Repeat("1,2\n", 2000)), LoadOptions{}, 16 << 10, -1, 2},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeTemp(t, c.file, c.data)
			if c.opt.Labels != "" {
				c.opt.Labels = writeTemp(t, "labels-idx1-ubyte", idxHeader([]uint32{200000}, nil))
			}
			defer func(v int64) { credlab.MemoryLimit = v }(credlab.MemoryLimit)
			credlab.MemoryLimit = c.limit
			df, err := LoadData(path, c.opt)
			var tl *credlab.TooLargeError
			if !errors.As(err, &tl) || df.Ncol() != 0 {
				t.Fatalf("got %v (%T), want a *credlab.TooLargeError", err, err)
			}
			if (c.rows >= 0 && tl.Rows != c.rows) || tl.Cols != c.cols || tl.Limit != c.limit || !(tl.Bytes > float64(c.limit)) {
				t.Errorf("got %+v, want %d x %d over %d", *tl, c.rows, c.cols, c.limit)
			}
			// The rows of a file read row by row are those read so far.
			if c.rows < 0 && (tl.Rows < 1 || tl.Rows >= 2000) {
				t.Errorf("%d rows read when the limit was reached, of 2000", tl.Rows)
			}
		})
	}
}

// TestLoadBadAsMissing checks that LoadData's bad-as-missing setting, in
// LoadOptions or in LoadOptions.CSV as the command sets it, applies to ARFF
// and LIBSVM files, and that without it a bad value is a *CellError with
// its file, line, column, name and row.
func TestLoadBadAsMissing(t *testing.T) {
	cases := []struct {
		name, file, data string
		col              string // the column read as missing
		line, field, row int
		value            string
	}{
		{"arff", "bad.arff", "@relation r\n@attribute a numeric\n@attribute b numeric\n@data\n1,2\n3,abc\n", "b", 6, 2, 1, "abc"},
		{"arff overflow", "o.arff", "@attribute a numeric\n@attribute b numeric\n@data\n1e999,2\n", "a", 4, 1, 0, "1e999"},
		{"arff sparse", "s.arff", "@attribute a numeric\n@attribute b numeric\n@data\n{1 x}\n", "b", 4, 2, 0, "x"},
		{"libsvm value", "bad.libsvm", "1 1:1 2:2\n-1 2:abc\n", "x2", 2, 2, 1, "abc"},
		{"libsvm label", "l.libsvm", "1 1:1\nabc 1:2\n", "y", 2, 1, 1, "abc"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			path := writeTemp(t, c.file, []byte(c.data))
			_, err := LoadData(path, LoadOptions{})
			var ce *CellError
			if !errors.As(err, &ce) {
				t.Fatalf("got %v (%T), want a *CellError", err, err)
			}
			if ce.File != path || ce.Line != c.line || ce.Column != c.field || ce.Name != c.col || ce.Row != c.row || ce.Value != c.value {
				t.Errorf("got %+v, want line %d, column %d (%q), row %d, value %q", *ce, c.line, c.field, c.col, c.row, c.value)
			}
			for _, opt := range []LoadOptions{{BadAsMissing: true}, {CSV: CSVOptions{BadAsMissing: true}}} {
				df, err := LoadData(path, opt)
				if err != nil {
					t.Fatalf("%+v: %v", opt, err)
				}
				if v := col(t, df, c.col); !math.IsNaN(v[c.row]) {
					t.Errorf("%+v: column %s = %v, want NaN in row %d", opt, c.col, v, c.row)
				}
			}
		})
	}
}
