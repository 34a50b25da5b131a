package parquet

import (
	"bytes"
	"context"
	"fmt"
	"io"
	"math"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode/utf8"

	"github.com/apache/arrow-go/v18/arrow"
	"github.com/apache/arrow-go/v18/arrow/array"
	"github.com/apache/arrow-go/v18/arrow/memory"
	arrowpq "github.com/apache/arrow-go/v18/parquet"
	"github.com/apache/arrow-go/v18/parquet/compress"
	"github.com/apache/arrow-go/v18/parquet/file"
	"github.com/apache/arrow-go/v18/parquet/pqarrow"
	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/frames"
	"github.com/credlab/credlab/internal/datasets"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// init registers the format with frames.LoadData.
func init() {
	if err := frames.RegisterFormat("parquet", []string{".parquet", ".parq"}, Load); err != nil {
		panic(err)
	}
}

// ReaderAtSeeker is what Read reads from: Parquet keeps its schema at the
// end of the file, so the reader needs random access (an *os.File or a
// *bytes.Reader).
type ReaderAtSeeker interface {
	io.ReaderAt
	io.Seeker
}

// Read reads a Parquet file (with Apache Arrow's Go reader, pqarrow)
// into a frame, one column per top-level field; name labels errors. The
// file's types are kept, not guessed from text:
//
//   - integers (signed or unsigned, any width) are an int column, or a
//     float column with NaN for missing values (as in CSV) or when a value
//     does not fit in a float64 exactly (beyond 2^53);
//   - floats (16, 32 and 64 bit) and decimals are float columns, missing
//     values NaN;
//   - booleans are a bool column, or a float column of 1, 0 and NaN when
//     values are missing;
//   - strings and UTF-8 binary values are string columns (a missing value
//     is "", as an empty CSV cell), dictionary-encoded columns (pandas'
//     categoricals) the strings or numbers of their dictionary;
//   - dates, times and timestamps are string columns in ISO 8601
//     ("2006-01-02", "15:04:05", "2006-01-02T15:04:05Z" in UTC), as a CSV
//     file holds them;
//   - a column of the null type is a float column of NaN;
//   - nested types (lists, structs, maps) and binary values that are not
//     text are a *frames.ParseError naming the column and its type.
//
// Column names are checked as CSV headers are (empty, repeated or
// control-character names are a *frames.ParseError with the column's
// position). A file that is not Parquet, or is truncated or corrupt, is a
// *frames.ParseError saying so, never a panic. The table is checked against the memory limit
// (credlab.EffectiveMemoryLimit) from the file's metadata before it is
// read: a *credlab.TooLargeError refuses it.
func Read(r ReaderAtSeeker, name string) (df dataframe.DataFrame, err error) {
	defer func() {
		// Arrow's reader can panic on a corrupt file; the caller gets an
		// error naming the file instead.
		if p := recover(); p != nil {
			df, err = dataframe.DataFrame{}, &frames.ParseError{File: name, Msg: fmt.Sprintf("corrupt Parquet file (%v)", p)}
		}
	}()
	var none dataframe.DataFrame
	pf, err := file.NewParquetReader(r)
	if err != nil {
		return none, &frames.ParseError{File: name, Msg: "not a Parquet file, or a truncated or corrupt one", Err: err}
	}
	defer pf.Close()
	meta := pf.MetaData()
	sc := meta.Schema
	if sc == nil || sc.Root() == nil || sc.Root().NumFields() == 0 {
		return none, &frames.ParseError{File: name, Msg: "the Parquet file has no columns"}
	}
	rows, cols := meta.GetNumRows(), sc.Root().NumFields()
	if rows <= 0 {
		return none, &frames.ParseError{File: name, Msg: "the Parquet file has no rows"}
	}
	if rows > datasets.MaxElements || rows*int64(cols) > datasets.MaxElements {
		return none, &frames.ParseError{File: name, Msg: fmt.Sprintf("%d rows x %d columns exceed the limit of %d values", rows, cols, datasets.MaxElements)}
	}
	// Arrow's columns and the frame's (floatColumnBytes a value) are alive
	// together at the peak.
	need := float64(rows) * float64(cols) * (floatColumnBytes + 16)
	for i := 0; i < meta.NumRowGroups(); i++ {
		need += float64(max(meta.RowGroup(i).TotalByteSize(), 0))
	}
	if lim, _ := credlab.EffectiveMemoryLimit(); need > float64(lim) {
		return none, &credlab.TooLargeError{What: fmt.Sprintf("the Parquet file %s, a table", name), Rows: int(rows), Cols: cols,
			Bytes: need, Limit: lim, Hint: "raise the memory limit, or read fewer columns or rows"}
	}
	if err := checkDictionaries(pf, name); err != nil {
		return none, err
	}
	fr, err := pqarrow.NewFileReader(pf, pqarrow.ArrowReadProperties{}, memory.DefaultAllocator)
	if err != nil {
		return none, &frames.ParseError{File: name, Msg: "reading the Parquet schema", Err: err}
	}
	// Column by column on this goroutine (ReadTable builds its readers on
	// others, where a corrupt file's panic could not be recovered).
	fields := fr.Manifest.Fields
	names := make([]string, len(fields))
	for j := range fields {
		names[j] = fields[j].Field.Name
	}
	if err := datasets.CheckHeader(name, names); err != nil {
		pe := err.(*frames.ParseError)
		pe.Line = 0
		pe.Msg = strings.Replace(pe.Msg, "in the header", "in the Parquet schema", 1)
		return none, pe
	}
	out := make([]series.Series, len(names))
	for j, cname := range names {
		if _, err := kindOf(fields[j].Field.Type); err != nil {
			return none, &frames.ParseError{File: name, Column: j + 1, Name: cname, Msg: err.Error()}
		}
		cr, err := fr.GetColumn(context.Background(), j)
		if err != nil {
			return none, &frames.ParseError{File: name, Column: j + 1, Name: cname, Msg: "reading the Parquet column (truncated or corrupt file?)", Err: err}
		}
		c, err := cr.NextBatch(rows)
		cr.Release()
		if err != nil {
			return none, &frames.ParseError{File: name, Column: j + 1, Name: cname, Msg: "reading the Parquet column (truncated or corrupt file?)", Err: err}
		}
		var cc columnCells
		for _, chunk := range c.Chunks() {
			if err = cc.add(chunk); err != nil {
				break
			}
		}
		c.Release()
		if err != nil {
			return none, &frames.ParseError{File: name, Column: j + 1, Name: cname, Msg: err.Error()}
		}
		if int64(cc.len()) != rows {
			return none, &frames.ParseError{File: name, Column: j + 1, Name: cname, Msg: fmt.Sprintf("%d values for %d rows (corrupt file?)", cc.len(), rows)}
		}
		s, row := cc.series(cname)
		if row >= 0 {
			return none, &frames.ParseError{File: name, Column: j + 1, Name: cname,
				Msg: fmt.Sprintf("row %d: the value %s contains a control character (is this binary data?)", row, strconv.Quote(datasets.Cut(cc.strs[row], 40)))}
		}
		out[j] = s
	}
	df = dataframe.New(out...)
	if df.Err != nil {
		return none, &frames.ParseError{File: name, Msg: "building the frame", Err: df.Err}
	}
	return df, nil
}

// checkDictionaries refuses a dictionary page that declares more values
// than it has bytes (each value takes at least one): Arrow allocates the
// declared count before decoding, so a corrupt header of a few bytes would
// take gigabytes. It reads the first page of each column chunk, where a
// dictionary page is.
func checkDictionaries(pf *file.Reader, name string) error {
	for i := 0; i < pf.NumRowGroups(); i++ {
		rg := pf.RowGroup(i)
		for j := 0; j < rg.NumColumns(); j++ {
			pr, err := rg.GetColumnPageReader(j)
			if err != nil {
				return &frames.ParseError{File: name, Msg: fmt.Sprintf("row group %d, column chunk %d: reading its pages (truncated or corrupt file?)", i+1, j+1), Err: err}
			}
			if !pr.Next() {
				continue // no page, or an error the column's reader reports
			}
			if p := pr.Page(); p.Type() == file.PageTypeDictionaryPage && (p.NumValues() < 0 || int(p.NumValues()) > len(p.Data())) {
				return &frames.ParseError{File: name, Msg: fmt.Sprintf("row group %d, column chunk %d: a dictionary page declares %d values in %d bytes (corrupt file?)",
					i+1, j+1, p.NumValues(), len(p.Data()))}
			}
		}
	}
	return nil
}

// Load reads the Parquet file at path (a ".gz" name is decompressed into
// memory first); see Read.
func Load(path string) (dataframe.DataFrame, error) {
	rc, err := datasets.Open(path)
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	defer rc.Close()
	if r, ok := rc.(ReaderAtSeeker); ok {
		return Read(r, path)
	}
	b, err := io.ReadAll(rc)
	if err != nil {
		return dataframe.DataFrame{}, &frames.ParseError{File: path, Msg: "read error", Err: err}
	}
	return Read(bytes.NewReader(b), path)
}

// floatColumnBytes is the memory of a float in a frame: a series element
// (16 bytes), twice, since dataframe.New copies its series (as in frames).
const floatColumnBytes = 32

// cellKind is the frame type of a Parquet column.
type cellKind int

const (
	kindNone cellKind = iota // no chunk yet
	kindInt
	kindFloat
	kindBool
	kindString
)

// columnCells gathers one column's values over its chunks.
type columnCells struct {
	kind    cellKind
	floats  []float64
	strs    []string
	bools   []bool
	nullAt  []int // the rows of null values in a bool column
	missing bool  // a null value
	inexact bool  // an integer beyond 2^53
}

// kindOf returns the frame type of an Arrow type, or an error naming it.
func kindOf(t arrow.DataType) (cellKind, error) {
	switch t.ID() {
	case arrow.INT8, arrow.INT16, arrow.INT32, arrow.INT64, arrow.UINT8, arrow.UINT16, arrow.UINT32, arrow.UINT64:
		return kindInt, nil
	case arrow.FLOAT16, arrow.FLOAT32, arrow.FLOAT64, arrow.DECIMAL128, arrow.DECIMAL256, arrow.NULL:
		return kindFloat, nil
	case arrow.BOOL:
		return kindBool, nil
	case arrow.STRING, arrow.LARGE_STRING, arrow.BINARY, arrow.LARGE_BINARY, arrow.DATE32, arrow.DATE64,
		arrow.TIMESTAMP, arrow.TIME32, arrow.TIME64:
		return kindString, nil
	case arrow.DICTIONARY:
		return kindOf(t.(*arrow.DictionaryType).ValueType)
	}
	return kindNone, fmt.Errorf("has the type %s, which credlab does not read (numbers, booleans, strings, dates and times are read): leave it out of the file, or flatten it", t)
}

// add appends the values of one chunk.
func (c *columnCells) add(a arrow.Array) error {
	k, err := kindOf(a.DataType())
	if err != nil {
		return err
	}
	if c.kind != kindNone && c.kind != k {
		return fmt.Errorf("chunks of different types (corrupt file?)")
	}
	c.kind = k
	if d, ok := a.(*array.Dictionary); ok {
		var dict columnCells
		if err := dict.add(d.Dictionary()); err != nil {
			return err
		}
		n := d.Dictionary().Len()
		for i := 0; i < d.Len(); i++ {
			idx := -1
			if d.IsValid(i) {
				if idx = d.GetValueIndex(i); idx < 0 || idx >= n {
					return fmt.Errorf("row %d: dictionary index %d out of range (corrupt file?)", c.len(), idx)
				}
			}
			c.appendFrom(&dict, idx)
		}
		return nil
	}
	for i := 0; i < a.Len(); i++ {
		if a.IsNull(i) {
			c.appendNull()
			continue
		}
		switch v := a.(type) {
		case *array.Int8:
			c.appendInt(float64(v.Value(i)))
		case *array.Int16:
			c.appendInt(float64(v.Value(i)))
		case *array.Int32:
			c.appendInt(float64(v.Value(i)))
		case *array.Int64:
			x := v.Value(i)
			c.inexact = c.inexact || x > 1<<53 || x < -1<<53
			c.appendInt(float64(x))
		case *array.Uint8:
			c.appendInt(float64(v.Value(i)))
		case *array.Uint16:
			c.appendInt(float64(v.Value(i)))
		case *array.Uint32:
			c.appendInt(float64(v.Value(i)))
		case *array.Uint64:
			x := v.Value(i)
			c.inexact = c.inexact || x > 1<<53
			c.appendInt(float64(x))
		case *array.Float16:
			c.floats = append(c.floats, float64(v.Value(i).Float32()))
		case *array.Float32:
			c.floats = append(c.floats, float64(v.Value(i)))
		case *array.Float64:
			c.floats = append(c.floats, v.Value(i))
		case *array.Decimal128:
			c.floats = append(c.floats, v.Value(i).ToFloat64(v.DataType().(*arrow.Decimal128Type).Scale))
		case *array.Decimal256:
			c.floats = append(c.floats, v.Value(i).ToFloat64(v.DataType().(*arrow.Decimal256Type).Scale))
		case *array.Boolean:
			c.bools = append(c.bools, v.Value(i))
		case *array.String:
			c.strs = append(c.strs, v.Value(i))
		case *array.LargeString:
			c.strs = append(c.strs, v.Value(i))
		case *array.Binary:
			if err := c.appendText(v.Value(i)); err != nil {
				return err
			}
		case *array.LargeBinary:
			if err := c.appendText(v.Value(i)); err != nil {
				return err
			}
		case *array.Date32:
			c.strs = append(c.strs, v.Value(i).ToTime().UTC().Format(time.DateOnly))
		case *array.Date64:
			c.strs = append(c.strs, v.Value(i).ToTime().UTC().Format(time.DateOnly))
		case *array.Timestamp:
			unit := v.DataType().(*arrow.TimestampType).Unit
			c.strs = append(c.strs, v.Value(i).ToTime(unit).UTC().Format(time.RFC3339Nano))
		case *array.Time32:
			unit := v.DataType().(*arrow.Time32Type).Unit
			c.strs = append(c.strs, v.Value(i).ToTime(unit).UTC().Format("15:04:05.999999999"))
		case *array.Time64:
			unit := v.DataType().(*arrow.Time64Type).Unit
			c.strs = append(c.strs, v.Value(i).ToTime(unit).UTC().Format("15:04:05.999999999"))
		default:
			return fmt.Errorf("has the type %s, which credlab does not read", a.DataType())
		}
	}
	return nil
}

func (c *columnCells) len() int { return len(c.floats) + len(c.strs) + len(c.bools) }

// appendInt appends an integer; ints are held as floats until the end.
func (c *columnCells) appendInt(x float64) { c.floats = append(c.floats, x) }

func (c *columnCells) appendText(b []byte) error {
	if !utf8.Valid(b) {
		return fmt.Errorf("row %d: a binary value that is not UTF-8 text", c.len())
	}
	c.strs = append(c.strs, string(b))
	return nil
}

// appendNull appends a missing value: NaN, or "" in a string column.
func (c *columnCells) appendNull() {
	c.missing = true
	switch c.kind {
	case kindString:
		c.strs = append(c.strs, "")
	case kindBool:
		c.nullAt = append(c.nullAt, len(c.bools))
		c.bools = append(c.bools, false)
	default:
		c.floats = append(c.floats, math.NaN())
	}
}

// appendFrom appends value idx of a dictionary (-1: missing).
func (c *columnCells) appendFrom(d *columnCells, idx int) {
	switch {
	case idx < 0:
		c.appendNull()
	case c.kind == kindString:
		c.strs = append(c.strs, d.strs[idx])
	case c.kind == kindBool:
		if slices.Contains(d.nullAt, idx) {
			c.appendNull()
		} else {
			c.bools = append(c.bools, d.bools[idx])
		}
	default:
		c.floats = append(c.floats, d.floats[idx])
		c.missing = c.missing || math.IsNaN(d.floats[idx]) && d.missing
		c.inexact = c.inexact || d.inexact
	}
}

// series returns the column as a series, or the row of a string value with
// a control character (-1 if none).
func (c *columnCells) series(name string) (series.Series, int) {
	switch c.kind {
	case kindInt:
		if !c.missing && !c.inexact {
			iv := make([]int, len(c.floats))
			for i, x := range c.floats {
				iv[i] = int(x)
			}
			return series.New(iv, series.Int, name), -1
		}
		return series.New(c.floats, series.Float, name), -1
	case kindBool:
		if !c.missing {
			return series.New(c.bools, series.Bool, name), -1
		}
		v := make([]float64, len(c.bools))
		for i, b := range c.bools {
			if b {
				v[i] = 1
			}
		}
		for _, at := range c.nullAt {
			v[at] = math.NaN()
		}
		return series.New(v, series.Float, name), -1
	case kindString:
		for i, s := range c.strs {
			if datasets.HasControl(s) {
				return series.Series{}, i
			}
		}
		return series.New(c.strs, series.String, name), -1
	}
	return series.New(c.floats, series.Float, name), -1
}

// Write writes df as a Parquet file (Apache Arrow's Go writer,
// snappy-compressed): float columns as doubles and int columns as 64-bit
// integers, both with missing values (NaN) as nulls, bool columns as
// booleans and string columns as UTF-8 strings. Read, pandas and
// any Parquet reader read it back.
func Write(w io.Writer, df dataframe.DataFrame) error {
	if df.Err != nil {
		return fmt.Errorf("frames/parquet: writing: %w", df.Err)
	}
	names := df.Names()
	fields := make([]arrow.Field, len(names))
	arrs := make([]arrow.Array, len(names))
	mem := memory.DefaultAllocator
	defer func() {
		for _, a := range arrs {
			if a != nil {
				a.Release()
			}
		}
	}()
	for j, n := range names {
		s := df.Col(n)
		switch s.Type() {
		case series.Float, series.Int:
			var b array.Builder
			if s.Type() == series.Float {
				fb := array.NewFloat64Builder(mem)
				for i := 0; i < s.Len(); i++ {
					if e := s.Elem(i); e.IsNA() || math.IsNaN(e.Float()) {
						fb.AppendNull()
					} else {
						fb.Append(e.Float())
					}
				}
				fields[j] = arrow.Field{Name: n, Type: arrow.PrimitiveTypes.Float64, Nullable: true}
				b = fb
			} else {
				ib := array.NewInt64Builder(mem)
				for i := 0; i < s.Len(); i++ {
					if e := s.Elem(i); e.IsNA() {
						ib.AppendNull()
					} else {
						v, _ := e.Int()
						ib.Append(int64(v))
					}
				}
				fields[j] = arrow.Field{Name: n, Type: arrow.PrimitiveTypes.Int64, Nullable: true}
				b = ib
			}
			arrs[j] = b.NewArray()
			b.Release()
		case series.Bool:
			bb := array.NewBooleanBuilder(mem)
			for i := 0; i < s.Len(); i++ {
				if e := s.Elem(i); e.IsNA() {
					bb.AppendNull()
				} else {
					v, _ := e.Bool()
					bb.Append(v)
				}
			}
			fields[j] = arrow.Field{Name: n, Type: arrow.FixedWidthTypes.Boolean, Nullable: true}
			arrs[j] = bb.NewArray()
			bb.Release()
		default:
			sb := array.NewStringBuilder(mem)
			for i := 0; i < s.Len(); i++ {
				if e := s.Elem(i); e.IsNA() {
					sb.AppendNull()
				} else {
					sb.Append(e.String())
				}
			}
			fields[j] = arrow.Field{Name: n, Type: arrow.BinaryTypes.String, Nullable: true}
			arrs[j] = sb.NewArray()
			sb.Release()
		}
	}
	rec := array.NewRecord(arrow.NewSchema(fields, nil), arrs, int64(df.Nrow()))
	defer rec.Release()
	tbl := array.NewTableFromRecords(rec.Schema(), []arrow.Record{rec})
	defer tbl.Release()
	props := arrowpq.NewWriterProperties(arrowpq.WithCompression(compress.Codecs.Snappy))
	if err := pqarrow.WriteTable(tbl, w, max(int64(df.Nrow()), 1), props, pqarrow.DefaultWriterProps()); err != nil {
		return fmt.Errorf("frames/parquet: writing: %w", err)
	}
	return nil
}
