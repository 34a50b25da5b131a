package frames

import (
	"errors"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// TestCSVNeverSilent covers bad input while loading: each bad input is
// a typed error naming the place, or a documented reading.
func TestCSVNeverSilent(t *testing.T) {
	for _, c := range []struct {
		name, in  string
		line, col int    // of a *ParseError or *CellError
		cell      string // the value of a *CellError
		row       int
	}{
		{name: "abc in a numeric column", in: "a,b,y\n1,2,3\n4,abc,6\n7,8,9\n", line: 3, col: 2, cell: "abc", row: 1},
		{name: "1e999 overflows", in: "a,b,y\n1,2,3\n1e999,5,6\n7,8,9\n", line: 3, col: 1, cell: "1e999", row: 1},
		{name: "duplicated names", in: "a,b,a\n1,2,3\n", line: 1, col: 3},
		{name: "empty name", in: "a,,y\n1,2,3\n", line: 1, col: 2},
		{name: "NUL in the header", in: "a\x00\x00b,y\n1,2\n", line: 1, col: 1},
		{name: "control byte in the header", in: "a,y\x01\n1,2\n", line: 1, col: 2},
		{name: "BOM inside a name", in: "0\ufeff,0\n1,2\n", line: 1, col: 1},
		{name: "zero-width space in a name", in: "a,b\u200b\n1,2\n", line: 1, col: 2},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadCSV(strings.NewReader(c.in), "t.csv")
			if c.cell != "" {
				var ce *CellError
				if !errors.As(err, &ce) || ce.Line != c.line || ce.Column != c.col || ce.Value != c.cell || ce.Row != c.row || ce.File != "t.csv" {
					t.Fatalf("got %v (%T), want a *CellError at t.csv:%d:%d row %d value %q", err, err, c.line, c.col, c.row, c.cell)
				}
				return
			}
			var pe *ParseError
			if !errors.As(err, &pe) || pe.Line != c.line || pe.Column != c.col {
				t.Fatalf("got %v (%T), want a *ParseError at line %d, column %d", err, err, c.line, c.col)
			}
		})
	}
}

func TestCSVBadAsMissing(t *testing.T) {
	in := "a,b,y\n1,2,3\n4,abc,6\n7,8,9\n10,11,12\n"
	df, err := ReadCSV(strings.NewReader(in), "t.csv", CSVOptions{BadAsMissing: true})
	if err != nil {
		t.Fatal(err)
	}
	wantFloats(t, col(t, df, "b"), []float64{2, math.NaN(), 8, 11})
	// The missing-value rule follows: an error without DropNA, the row
	// dropped with it.
	_, err = Fit(df, Spec{Target: "y", Method: "krls", Lambda: 1e-3})
	var me *MissingError
	if !errors.As(err, &me) || me.Rows != 1 || me.First != 1 {
		t.Fatalf("got %v, want a *MissingError for row 1", err)
	}
	m, err := Fit(df, Spec{Target: "y", Method: "krls", Lambda: 1e-3, DropNA: true})
	if err != nil || m.Rows != 3 {
		t.Fatalf("DropNA: %v, %d rows", err, m.Rows)
	}
}

func TestCSVReading(t *testing.T) {
	in := "\ufeffa,flag,code,city,y\n1,true,007,x,1.5\n2,false,010,y,NA\n3,TRUE,011,x,Inf\n"
	df, err := ReadCSV(strings.NewReader(in), "t.csv", CSVOptions{Strings: []string{"code"}})
	if err != nil {
		t.Fatal(err)
	}
	wantNames(t, df, "a", "flag", "code", "city", "y")
	want := []series.Type{series.Int, series.Bool, series.String, series.String, series.Float}
	for j, ty := range df.Types() {
		if ty != want[j] {
			t.Errorf("column %s: type %v, want %v", df.Names()[j], ty, want[j])
		}
	}
	wantFloats(t, col(t, df, "y"), []float64{1.5, math.NaN(), math.Inf(1)})
	// A string column without OneHot is rejected with its name.
	_, err = Fit(df, Spec{Target: "a", Method: "krls", Exclude: []string{"y"}})
	var se *StringColumnsError
	if !errors.As(err, &se) || strings.Join(se.Columns, ",") != "code,city" {
		t.Fatalf("got %v, want a *StringColumnsError listing code, city", err)
	}
	// An infinite value is a *credlab.NotFiniteError with its row.
	_, err = Fit(df, Spec{Target: "a", Method: "krls", Exclude: []string{"code", "city"}, DropNA: true})
	var nf *credlab.NotFiniteError
	if !errors.As(err, &nf) || nf.Row != 2 {
		t.Fatalf("got %v, want a *NotFiniteError in row 2", err)
	}
	// A column of mostly words is a string column, not an error.
	df, err = ReadCSV(strings.NewReader("w,y\nred,1\n3,2\nblue,3\n"), "t.csv")
	if err != nil || df.Types()[0] != series.String {
		t.Fatalf("mostly words: %v, %v", err, df.Types())
	}
	// A column of missing values only is numeric: fitting it as the target
	// reports the missing values.
	df, err = ReadCSV(strings.NewReader("a,y\n1,\n2,\n3,\n"), "t.csv")
	if err != nil || df.Types()[1] != series.Float {
		t.Fatalf("empty column: %v, %v", err, df.Types())
	}
	_, err = Fit(df, Spec{Target: "y", Method: "krls"})
	var me *MissingError
	if !errors.As(err, &me) || me.Rows != 3 || me.Empty != nil {
		t.Fatalf("empty target: %v, want a *MissingError of 3 rows", err)
	}
	// An empty feature column is named as such, DropNA or not: dropping
	// rows cannot fill it.
	df, err = ReadCSV(strings.NewReader("a,b,y\n1,,1\n2,,4\n3,,9\n"), "t.csv")
	if err != nil {
		t.Fatal(err)
	}
	for _, drop := range []bool{false, true} {
		_, err = Fit(df, Spec{Target: "y", Method: "krls", DropNA: drop})
		if !errors.As(err, &me) || !slices.Equal(me.Empty, []string{"b"}) {
			t.Errorf("empty feature, DropNA %v: %v, want a *MissingError naming b as empty", drop, err)
		}
	}
	// The memory limit bounds the table.
	defer func(v int64) { credlab.MemoryLimit = v }(credlab.MemoryLimit)
	credlab.MemoryLimit = 100
	_, err = ReadCSV(strings.NewReader("a,y\n1,2\n3,4\n5,6\n"), "t.csv")
	var tl *credlab.TooLargeError
	if !errors.As(err, &tl) {
		t.Fatalf("over the memory limit: %v, want a *TooLargeError", err)
	}
	credlab.MemoryLimit = 0
	// Tab-separated files by name.
	df, err = LoadCSV("testdata/tiny.tsv")
	if err != nil || df.Ncol() != 3 {
		t.Fatalf("tsv: %v, %v", err, df.Names())
	}
}

func TestColumnErrorType(t *testing.T) {
	df, err := ReadCSV(strings.NewReader("rooms,y\n1,2\n3,4\n5,6\n"), "t.csv")
	if err != nil {
		t.Fatal(err)
	}
	_, err = Fit(df, Spec{Target: "Y", Method: "krls"})
	var ce *ColumnError
	if !errors.As(err, &ce) || ce.Name != "Y" || ce.Role != "target" || ce.Suggestion != "y" {
		t.Fatalf("got %v, want a *ColumnError for target Y suggesting y", err)
	}
}

func TestLoadData(t *testing.T) {
	for _, c := range []struct {
		path, format string
		cols         int
	}{
		{"testdata/houses.csv", "", 4},
		{"testdata/houses.csv.gz", "", 4},
		{"testdata/tiny.tsv", "", 3},
		{"testdata/cpu.arff", "", 5},
		{"testdata/tiny.libsvm", "", 5},
		{"testdata/tiny-images-idx3-ubyte", "", 4},
	} {
		df, err := LoadData(c.path, LoadOptions{Format: c.format})
		if err != nil || df.Ncol() != c.cols {
			t.Errorf("%s: %v, columns %v; want %d", c.path, err, df.Names(), c.cols)
		}
	}
	df, err := LoadData("testdata/tiny-images-idx3-ubyte", LoadOptions{Labels: "testdata/tiny-labels-idx1-ubyte.gz"})
	if err != nil || df.Names()[0] != "label" {
		t.Errorf("IDX with labels: %v, %v", err, df.Names())
	}
	for _, c := range []struct{ path, format string }{{"testdata/model-v1.json", ""}, {"testdata/houses.csv", "xls"}} {
		var pe *credlab.ParamError
		if _, err := LoadData(c.path, LoadOptions{Format: c.format}); !errors.As(err, &pe) || pe.Name != "LoadOptions.Format" {
			t.Errorf("%s as %q: %v, want a *ParamError for LoadOptions.Format", c.path, c.format, err)
		}
	}
}

// TestCSVNames reads a file without a header line under given names; a
// line with another number of fields is a *ParseError naming its line.
func TestCSVNames(t *testing.T) {
	df, err := ReadCSV(strings.NewReader("\ufeffM,1.5,3\nF,2.5,4\n"), "t.data", CSVOptions{Names: []string{"sex", "x", "y"}})
	if err != nil {
		t.Fatal(err)
	}
	if got := df.Names(); strings.Join(got, ",") != "sex,x,y" || df.Nrow() != 2 {
		t.Fatalf("names %v, %d rows", got, df.Nrow())
	}
	if s := df.Col("sex").Records(); s[0] != "M" || df.Col("x").Float()[1] != 2.5 {
		t.Errorf("values %v %v", s, df.Col("x").Float())
	}
	_, err = ReadCSV(strings.NewReader("M,1.5,3\nF,2.5\n"), "t.data", CSVOptions{Names: []string{"sex", "x", "y"}})
	var pe *ParseError
	if !errors.As(err, &pe) || pe.Line != 2 {
		t.Errorf("short line: %v", err)
	}
}

// TestCSVControlCells covers control characters in data cells:
// a cell of a string column with NUL or another control character (not a
// tab or a line break) is a *ParseError with the file, line, column and
// name, never a category; in a numeric column it is a bad cell.
func TestCSVControlCells(t *testing.T) {
	for _, c := range []struct {
		name, in  string
		line, col int
		colName   string
	}{
		{"NUL in a string cell", "c,y\nred,1\nre\x00d,2\n", 3, 1, "c"},
		{"control byte", "y,c\n1,a\n2,b\x01\n3,c\n", 3, 2, "c"},
		{"DEL", "y,c\n1,a\x7f\n", 2, 2, "c"},
		{"C1 control", "y,c\n1,a\u0085\n", 2, 2, "c"},
		{"quoted, after a multi-line cell", "c,y\n\"a\nb\",1\n\"x\x00\",2\n", 4, 1, "c"},
		{"forced string column", "code,y\n1,1\n2\x00,2\n", 3, 1, "code"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := ReadCSV(strings.NewReader(c.in), "t.csv", CSVOptions{Strings: []string{"code"}})
			var pe *ParseError
			if !errors.As(err, &pe) || pe.File != "t.csv" || pe.Line != c.line || pe.Column != c.col || pe.Name != c.colName {
				t.Fatalf("got %v (%T), want a *ParseError at t.csv:%d:%d, column %q", err, err, c.line, c.col, c.colName)
			}
		})
	}
	// Tabs and line breaks inside quoted cells are text.
	df, err := ReadCSV(strings.NewReader("c,y\n\"a\tb\",1\n\"two\nlines\",2\n"), "t.csv")
	if err != nil || df.Col("c").Records()[1] != "two\nlines" {
		t.Fatalf("tab and newline in cells: %v", err)
	}
	// A control character in a numeric column is a bad cell.
	_, err = ReadCSV(strings.NewReader("a,y\n1,1\n2,2\n\x00,3\n"), "t.csv")
	var ce *CellError
	if !errors.As(err, &ce) || ce.Line != 4 || ce.Row != 2 {
		t.Fatalf("got %v (%T), want a *CellError in line 4", err, err)
	}
}

// TestCSVTooLargePartial checks that a CSV file over the memory limit is a
// *credlab.TooLargeError counting the rows read when the limit was reached,
// which are fewer than the file has.
func TestCSVTooLargePartial(t *testing.T) {
	defer func(v int64) { credlab.MemoryLimit = v }(credlab.MemoryLimit)
	credlab.MemoryLimit = 1 << 10
	_, err := ReadCSV(strings.NewReader("a,b,c\n"+strings.Repeat("1,2,3\n", 100)), "big.csv")
	var tl *credlab.TooLargeError
	if !errors.As(err, &tl) || tl.Rows != 1<<10/(3*csvCellBytes)+1 || tl.Cols != 3 || tl.Limit != 1<<10 {
		t.Fatalf("got %v (%T), want a *credlab.TooLargeError after %d rows", err, err, 1<<10/(3*csvCellBytes)+1)
	}
	if !strings.Contains(tl.What, "big.csv") {
		t.Errorf("What %q does not name the file", tl.What)
	}
	// Long text cells count with their bytes: two rows of 1 KiB text.
	long := strings.Repeat("x", 1<<10)
	_, err = ReadCSV(strings.NewReader("a,b\n"+long+",1\n"+long+",2\n"), "text.csv")
	if !errors.As(err, &tl) || tl.Rows != 1 {
		t.Fatalf("got %v (%T), want a *credlab.TooLargeError at the first row", err, err)
	}
}

func TestFiniteColumn(t *testing.T) {
	df := dataframe.New(
		series.New([]float64{1, 2, 3}, series.Float, "ok"),
		series.New([]float64{1, math.NaN(), math.NaN()}, series.Float, "nan"),
		series.New([]float64{1, 2, math.Inf(-1)}, series.Float, "inf"),
		series.New([]string{"a", "b", "c"}, series.String, "s"),
	)
	if v, err := FiniteColumn(df, "ok"); err != nil || len(v) != 3 {
		t.Errorf("ok: %v, %v", v, err)
	}
	var me *MissingError
	if _, err := FiniteColumn(df, "nan"); !errors.As(err, &me) || me.Rows != 2 || me.First != 1 {
		t.Errorf("nan: %v, want a *MissingError of 2 rows from row 1", err)
	}
	var nf *credlab.NotFiniteError
	if _, err := FiniteColumn(df, "inf"); !errors.As(err, &nf) || nf.Row != 2 {
		t.Errorf("inf: %v, want a *credlab.NotFiniteError in row 2", err)
	}
	var cp *ColumnProblemError
	if _, err := FiniteColumn(df, "s"); !errors.As(err, &cp) {
		t.Errorf("strings: %v, want a *ColumnProblemError", err)
	}
	var ce *ColumnError
	if _, err := FiniteColumn(df, "okk"); !errors.As(err, &ce) || ce.Suggestion != "ok" {
		t.Errorf("missing column: %v, want a *ColumnError suggesting ok", err)
	}
}

func TestCSVHeaderless(t *testing.T) {
	abalone := "M,0.455,0.365,15\nF,0.53,0.42,7\nM,0.44,0.365,9\nI,0.33,0.255,10\n"
	for _, c := range []struct {
		name, in string
		opt      CSVOptions
		names    string // "" for an error at line 1
	}{
		{"abalone's first row", abalone, CSVOptions{}, ""},
		{"numbers only", "1.5,2,3\n4,5,6\n7,8,9\n", CSVOptions{}, ""},
		{"NoHeader", abalone, CSVOptions{NoHeader: true}, "x1|x2|x3|x4"},
		{"KeepHeader", abalone, CSVOptions{KeepHeader: true}, "M|0.455|0.365|15"},
		{"Names", abalone, CSVOptions{Names: []string{"sex", "length", "diameter", "rings"}}, "sex|length|diameter|rings"},
		{"pandas' integer names", "0,1,2\n4,5,6\n7,8,9\n", CSVOptions{}, "0|1|2"},
		{"years", "city,2019,2020\na,5,6\nb,8,9\n", CSVOptions{}, "city|2019|2020"},
		{"a name over numbers", "id,0.5,2\n1,5,6\n2,8,9\n", CSVOptions{}, "id|0.5|2"},
		{"a number over strings", "a,3\nx,y\nz,w\n", CSVOptions{}, "a|3"},
	} {
		t.Run(c.name, func(t *testing.T) {
			df, err := ReadCSV(strings.NewReader(c.in), "h.csv", c.opt)
			if c.names == "" {
				var pe *ParseError
				if !errors.As(err, &pe) || pe.Line != 1 || !strings.Contains(err.Error(), "NoHeader") {
					t.Fatalf("got %v, want a *ParseError at line 1 naming NoHeader", err)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			if got := strings.Join(df.Names(), "|"); got != c.names {
				t.Fatalf("names %s, want %s", got, c.names)
			}
			if c.opt.NoHeader || c.opt.Names != nil {
				if df.Nrow() != 4 || df.Elem(0, 0).String() != "M" {
					t.Errorf("%d rows, first %v: the first line is not the first row", df.Nrow(), df.Elem(0, 0))
				}
			}
		})
	}
}

func TestCSVWhitespace(t *testing.T) {
	zip := "  6.0000 -1.0000\t0.5\r\n\n5 1  -0.25  \n"
	for _, c := range []struct {
		name, in string
		opt      CSVOptions
		want     string // the frame as rows joined by "|", "" for an error
		line     int    // of the *ParseError
	}{
		{"runs of blanks, no header", zip, CSVOptions{Whitespace: true, NoHeader: true}, "x1 x2 x3|6.000000 -1.000000 0.500000|5.000000 1.000000 -0.250000", 0},
		{"a header", "a  b\n1 2\n3\t\t4\n", CSVOptions{Whitespace: true}, "a b|1 2|3 4", 0},
		{"Names", "1 2\n3 4\n", CSVOptions{Whitespace: true, Names: []string{"u", "v"}}, "u v|1 2|3 4", 0},
		{"a short row", "a b\n1 2\n\n3\n", CSVOptions{Whitespace: true}, "", 4},
		{"a long row against Names", "1 2 3\n", CSVOptions{Whitespace: true, Names: []string{"u", "v"}}, "", 1},
		{"Comma too", "a b\n1 2\n", CSVOptions{Whitespace: true, Comma: ';'}, "", 0},
		{"empty", "\n \n", CSVOptions{Whitespace: true}, "", 0},
	} {
		t.Run(c.name, func(t *testing.T) {
			df, err := ReadCSV(strings.NewReader(c.in), "w.dat", c.opt)
			if c.want == "" {
				var pe *ParseError
				if !errors.As(err, &pe) || pe.Line != c.line || pe.File != "w.dat" {
					t.Fatalf("got %v (%T), want a *ParseError of w.dat at line %d", err, err, c.line)
				}
				return
			}
			if err != nil {
				t.Fatal(err)
			}
			rows := []string{strings.Join(df.Names(), " ")}
			for _, r := range df.Records()[1:] {
				rows = append(rows, strings.Join(r, " "))
			}
			if got := strings.Join(rows, "|"); got != c.want {
				t.Fatalf("read %s, want %s", got, c.want)
			}
		})
	}
	// LoadData reads a name that does not tell the format as CSV with Whitespace.
	path := filepath.Join(t.TempDir(), "zip.train")
	if err := os.WriteFile(path, []byte(zip), 0o644); err != nil {
		t.Fatal(err)
	}
	df, err := LoadData(path, LoadOptions{CSV: CSVOptions{Whitespace: true, NoHeader: true}})
	if err != nil || df.Nrow() != 2 || df.Ncol() != 3 {
		t.Fatalf("LoadData: %v, %d x %d, want 2 x 3", err, df.Nrow(), df.Ncol())
	}
	if _, err := LoadData(path, LoadOptions{}); err == nil {
		t.Fatal("LoadData without Whitespace read a name that does not tell the format")
	}
}
