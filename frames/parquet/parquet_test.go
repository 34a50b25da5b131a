package parquet

import (
	"bytes"
	"errors"
	"math"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	arrowpq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/frames"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// arrowParquet writes columns with Arrow's own writer (pqarrow), in two row
// groups, and returns the file's bytes.
func arrowParquet(t testing.TB, fields []arrow.Field, cols []arrow.Array) []byte {
	t.Helper()
	rec := array.NewRecord(arrow.NewSchema(fields, nil), cols, int64(cols[0].Len()))
	defer rec.Release()
	tbl := array.NewTableFromRecords(rec.Schema(), []arrow.Record{rec})
	defer tbl.Release()
	var buf bytes.Buffer
	if err := pqarrow.WriteTable(tbl, &buf, 3, arrowpq.NewWriterProperties(), pqarrow.DefaultWriterProps()); err != nil {
		t.Fatal(err)
	}
	return buf.Bytes()
}

// housesParquet is testdata/houses.csv with two more columns holding
// missing values, written by Arrow with types a CSV file cannot state:
// 32-bit ints, a dictionary-encoded string column, float32.
func housesParquet(t testing.TB) (pq []byte, csv string) {
	mem := memory.DefaultAllocator
	rooms := array.NewInt32Builder(mem)
	rooms.AppendValues([]int32{3, 4, 2, 5, 3, 4}, nil)
	age := array.NewInt64Builder(mem)
	age.AppendValues([]int64{10, 5, 30, 2, 15, 8}, nil)
	city := array.NewDictionaryBuilder(mem, &arrow.DictionaryType{IndexType: arrow.PrimitiveTypes.Int8, ValueType: arrow.BinaryTypes.String}).(*array.BinaryDictionaryBuilder)
	for _, c := range []string{"north", "south", "north", "east", "south", "east"} {
		if err := city.AppendString(c); err != nil {
			t.Fatal(err)
		}
	}
	price := array.NewFloat64Builder(mem)
	price.AppendValues([]float64{2.1, 3.0, 1.2, 4.1, 2.4, 3.3}, nil)
	floors := array.NewInt16Builder(mem)
	floors.AppendValues([]int16{1, 2, 0, 3, 1, 2}, []bool{true, true, false, true, true, true})
	area := array.NewFloat32Builder(mem)
	area.AppendValues([]float32{50.5, 0, 40.25, 90.75, 60, 70.5}, []bool{true, false, true, true, true, true})
	garden := array.NewBooleanBuilder(mem)
	garden.AppendValues([]bool{true, false, false, true, true, false}, nil)
	fields := []arrow.Field{
		{Name: "rooms", Type: arrow.PrimitiveTypes.Int32},
		{Name: "age", Type: arrow.PrimitiveTypes.Int64},
		{Name: "city", Type: city.Type(), Nullable: true},
		{Name: "price", Type: arrow.PrimitiveTypes.Float64},
		{Name: "floors", Type: arrow.PrimitiveTypes.Int16, Nullable: true},
		{Name: "area", Type: arrow.PrimitiveTypes.Float32, Nullable: true},
		{Name: "garden", Type: arrow.FixedWidthTypes.Boolean},
	}
	var cols []arrow.Array
	for _, b := range []array.Builder{rooms, age, city, price, floors, area, garden} {
		cols = append(cols, b.NewArray())
		b.Release()
	}
	defer func() {
		for _, c := range cols {
			c.Release()
		}
	}()
	csv = "rooms,age,city,price,floors,area,garden\n" +
		"3,10,north,2.1,1,50.5,true\n4,5,south,3.0,2,,false\n2,30,north,1.2,,40.25,false\n" +
		"5,2,east,4.1,3,90.75,true\n3,15,south,2.4,1,60,true\n4,8,east,3.3,2,70.5,false\n"
	return arrowParquet(t, fields, cols), csv
}

// sameFrame fails unless a and b have the same names, types and values
// (NaN equal to NaN).
func sameFrame(t *testing.T, a, b dataframe.DataFrame) {
	t.Helper()
	if got, want := strings.Join(a.Names(), "|"), strings.Join(b.Names(), "|"); got != want {
		t.Fatalf("columns %s, want %s", got, want)
	}
	if a.Nrow() != b.Nrow() {
		t.Fatalf("%d rows, want %d", a.Nrow(), b.Nrow())
	}
	for _, n := range b.Names() {
		ca, cb := a.Col(n), b.Col(n)
		if ca.Type() != cb.Type() {
			t.Errorf("column %s: type %s, want %s", n, ca.Type(), cb.Type())
			continue
		}
		for i := 0; i < cb.Len(); i++ {
			ea, eb := ca.Elem(i), cb.Elem(i)
			same := ea.String() == eb.String()
			if cb.Type() == series.Float {
				x, y := ea.Float(), eb.Float()
				same = x == y || math.IsNaN(x) && math.IsNaN(y)
			}
			if !same {
				t.Errorf("column %s row %d: %v, want %v", n, i, ea, eb)
			}
		}
	}
}

func TestParquetMatchesCSV(t *testing.T) {
	pq, csv := housesParquet(t)
	got, err := Read(bytes.NewReader(pq), "houses.parquet")
	if err != nil {
		t.Fatal(err)
	}
	want, err := frames.ReadCSV(strings.NewReader(csv), "houses.csv")
	if err != nil {
		t.Fatal(err)
	}
	sameFrame(t, got, want)
	if got.Col("rooms").Type() != series.Int || got.Col("floors").Type() != series.Float || got.Col("city").Type() != series.String {
		t.Errorf("types %v", got.Types())
	}
	// Through LoadData, by the name and by -format, and gzipped.
	dir := t.TempDir()
	for _, name := range []string{"h.parquet", "h.parq", "h.bin"} {
		path := filepath.Join(dir, name)
		if err := os.WriteFile(path, pq, 0o644); err != nil {
			t.Fatal(err)
		}
		df, err := frames.LoadData(path, frames.LoadOptions{Format: map[bool]string{true: "parquet"}[name == "h.bin"]})
		if err != nil {
			t.Fatalf("%s: %v", name, err)
		}
		sameFrame(t, df, want)
	}
}

func TestParquetRoundTrip(t *testing.T) {
	df := dataframe.New(
		series.New([]float64{1.5, math.NaN(), 1e-300, -2}, series.Float, "x"),
		series.New([]int{1, -2, 1 << 40, 0}, series.Int, "n"),
		series.New([]bool{true, false, true, true}, series.Bool, "b"),
		series.New([]string{"a", "b c", "", "d,e"}, series.String, "s"),
	)
	var buf bytes.Buffer
	if err := Write(&buf, df); err != nil {
		t.Fatal(err)
	}
	back, err := Read(bytes.NewReader(buf.Bytes()), "rt.parquet")
	if err != nil {
		t.Fatal(err)
	}
	sameFrame(t, back, df)
}

func TestParquetTypes(t *testing.T) {
	mem := memory.DefaultAllocator
	date := array.NewDate32Builder(mem)
	date.AppendValues([]arrow.Date32{arrow.Date32FromTime(mustTime(t, "2024-03-01T00:00:00Z")), 0}, nil)
	ts := array.NewTimestampBuilder(mem, &arrow.TimestampType{Unit: arrow.Millisecond, TimeZone: "UTC"})
	ts.AppendValues([]arrow.Timestamp{arrow.Timestamp(mustTime(t, "2024-03-01T12:30:00Z").UnixMilli()), 0}, []bool{true, false})
	big := array.NewUint64Builder(mem)
	big.AppendValues([]uint64{1 << 60, 1}, nil)
	flag := array.NewBooleanBuilder(mem)
	flag.AppendValues([]bool{true, false}, []bool{true, false})
	name := array.NewStringBuilder(mem)
	name.AppendValues([]string{"x", ""}, []bool{true, false})
	var cols []arrow.Array
	for _, b := range []array.Builder{date, ts, big, flag, name} {
		cols = append(cols, b.NewArray())
	}
	pq := arrowParquet(t, []arrow.Field{
		{Name: "date", Type: arrow.FixedWidthTypes.Date32},
		{Name: "ts", Type: ts.Type(), Nullable: true},
		{Name: "big", Type: arrow.PrimitiveTypes.Uint64},
		{Name: "flag", Type: arrow.FixedWidthTypes.Boolean, Nullable: true},
		{Name: "name", Type: arrow.BinaryTypes.String, Nullable: true},
	}, cols)
	df, err := Read(bytes.NewReader(pq), "t.parquet")
	if err != nil {
		t.Fatal(err)
	}
	if got := df.Col("date").Records(); strings.Join(got, "|") != "2024-03-01|1970-01-01" {
		t.Errorf("date %q", got)
	}
	if got := df.Col("ts").Records(); strings.Join(got, "|") != "2024-03-01T12:30:00Z|" {
		t.Errorf("timestamp %q", got)
	}
	if df.Col("big").Type() != series.Float {
		t.Errorf("uint64 beyond 2^53 read as %s, want float", df.Col("big").Type())
	}
	flags, err := frames.Column(df, "flag")
	if err != nil {
		t.Fatal(err)
	}
	if len(flags) != 2 || flags[0] != 1 || !math.IsNaN(flags[1]) {
		t.Errorf("bool column with a null read as %v, want [1 NaN]", flags)
	}
	if got := df.Col("name").Records(); strings.Join(got, "|") != "x|" {
		t.Errorf("string %q", got)
	}
}

func mustTime(t *testing.T, s string) time.Time {
	t.Helper()
	tm, err := time.Parse(time.RFC3339, s)
	if err != nil {
		t.Fatal(err)
	}
	return tm
}

func TestParquetErrors(t *testing.T) {
	pq, _ := housesParquet(t)
	list := array.NewListBuilder(memory.DefaultAllocator, arrow.PrimitiveTypes.Int64)
	list.Append(true)
	list.ValueBuilder().(*array.Int64Builder).Append(1)
	withList := arrowParquet(t, []arrow.Field{{Name: "tags", Type: arrow.ListOf(arrow.PrimitiveTypes.Int64), Nullable: true}}, []arrow.Array{list.NewArray()})
	dup := array.NewInt64Builder(memory.DefaultAllocator)
	dup.AppendValues([]int64{1}, nil)
	d := dup.NewArray()
	// Found by FuzzReadParquet: a dictionary page header declares 1.2e9
	// values in 8 bytes (Arrow would allocate 9 GB for it).
	dictCount, err := os.ReadFile("testdata/dictionary-count.parquet")
	if err != nil {
		t.Fatal(err)
	}
	twice := arrowParquet(t, []arrow.Field{{Name: "a", Type: d.DataType()}, {Name: "a", Type: d.DataType()}}, []arrow.Array{d, d})
	for _, c := range []struct {
		name string
		data []byte
		col  int
		msg  string
	}{
		{"empty", nil, 0, "not a Parquet file"},
		{"CSV text", []byte("a,b\n1,2\n"), 0, "not a Parquet file"},
		{"truncated", pq[:len(pq)/2], 0, "not a Parquet file"},
		{"footer only", pq[len(pq)-200:], 0, "Parquet"},
		{"list column", withList, 1, `column "tags": has the type list`},
		{"repeated name", twice, 2, "appears twice"},
		{"dictionary count", dictCount, 0, "a dictionary page declares 1200561724 values in 8 bytes"},
	} {
		t.Run(c.name, func(t *testing.T) {
			_, err := Read(bytes.NewReader(c.data), "bad.parquet")
			var pe *frames.ParseError
			if !errors.As(err, &pe) || pe.File != "bad.parquet" || pe.Column != c.col || !strings.Contains(err.Error(), c.msg) {
				t.Fatalf("got %v (%T), want a *ParseError of bad.parquet, column %d, saying %q", err, err, c.col, c.msg)
			}
		})
	}
	// A corrupt page: flip bytes inside the data, keep the footer.
	bad := append([]byte(nil), pq...)
	for i := 8; i < len(bad)/3; i++ {
		bad[i] ^= 0x5a
	}
	if _, err := Read(bytes.NewReader(bad), "bad.parquet"); err == nil {
		t.Error("a file with corrupt pages was read without an error")
	} else if !strings.Contains(err.Error(), "bad.parquet") {
		t.Errorf("error %q does not name the file", err)
	}
	defer func(m int64) { credlab.MemoryLimit = m }(credlab.MemoryLimit)
	credlab.MemoryLimit = 1000
	var tl *credlab.TooLargeError
	if _, err := Read(bytes.NewReader(pq), "big.parquet"); !errors.As(err, &tl) {
		t.Errorf("over the memory limit: %v, want a *credlab.TooLargeError", err)
	}
}

func FuzzReadParquet(f *testing.F) {
	pq, _ := housesParquet(f)
	f.Add(pq)
	var buf bytes.Buffer
	df := dataframe.New(series.New([]float64{1, math.NaN()}, series.Float, "x"), series.New([]string{"a", "b"}, series.String, "s"))
	if err := Write(&buf, df); err != nil {
		f.Fatal(err)
	}
	f.Add(buf.Bytes())
	f.Add([]byte("PAR1\x00\x00\x00\x00PAR1"))
	f.Fuzz(func(t *testing.T, data []byte) {
		defer func(m int64) { credlab.MemoryLimit = m }(credlab.MemoryLimit)
		credlab.MemoryLimit = 64 << 20
		df, err := Read(bytes.NewReader(data), "fuzz.parquet")
		if err != nil {
			if !strings.Contains(err.Error(), "fuzz.parquet") {
				t.Fatalf("error %q does not name the file", err)
			}
			return
		}
		if df.Err != nil || df.Ncol() == 0 || df.Nrow() == 0 {
			t.Fatalf("no error but a frame of %d x %d, err %v", df.Nrow(), df.Ncol(), df.Err)
		}
	})
}
