package frames

import (
	"io"

	"github.com/credlab/credlab/internal/datasets"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// ReadARFF reads Weka ARFF data into a frame with one column per
// attribute, in file order, named as in the file. NUMERIC, REAL and
// INTEGER attributes become float columns; nominal ({a, b, c}), STRING and
// DATE attributes become string columns (encode them with Spec.OneHot).
// '?' is a missing value (NaN). Data rows are comma-separated values,
// optionally quoted with ' or " (a backslash escapes a quote), or sparse
// rows "{index value, ...}" with 0-based indices where an omitted numeric
// value is 0 and an omitted nominal value is the first level. A nominal
// value outside its declared levels, a string or nominal value with a
// control character (such as NUL) and any other malformed line are a
// *ParseError with its line (and column); name labels errors. A numeric
// value that is not a finite number ("abc", "1e999") is a *CellError with
// its line, column and row, unless opt.BadAsMissing reads it as missing.
// Data over the memory limit (credlab.EffectiveMemoryLimit), counting the
// frame's columns, is refused with a *credlab.TooLargeError as its rows
// are read. The parser is internal/datasets' ReadARFFColumns, shared with
// the numeric loaders. At most one opt is used.
func ReadARFF(r io.Reader, name string, opt ...ARFFOptions) (dataframe.DataFrame, error) {
	var o ARFFOptions
	if len(opt) > 0 {
		o = opt[0]
	}
	attrs, _, err := datasets.ReadARFFColumns(r, name, false, datasets.Options{BadAsMissing: o.BadAsMissing, NumBytes: floatColumnBytes, StrBytes: stringColumnBytes})
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	cols := make([]series.Series, len(attrs))
	for j, a := range attrs {
		if a.Numeric {
			cols[j] = series.New(a.Nums, series.Float, a.Name)
		} else {
			cols[j] = series.New(a.Strs, series.String, a.Name)
		}
	}
	df := dataframe.New(cols...)
	if df.Err != nil {
		return dataframe.DataFrame{}, &ParseError{File: name, Msg: "building the frame", Err: df.Err}
	}
	return df, nil
}

// ARFFOptions configures ReadARFF and LoadARFF.
type ARFFOptions struct {
	// BadAsMissing reads a value of a numeric attribute that is not a
	// finite number (such as "abc" or "1e999"), or an empty one, as a
	// missing value, as CSVOptions.BadAsMissing does for CSV. Without it
	// such a value is a *CellError.
	BadAsMissing bool
}

// The bytes a value takes in a frame built by the loaders: a gota float
// element (16 bytes) or string element (24 bytes), twice, since
// dataframe.New copies its series.
const (
	floatColumnBytes  = 32
	stringColumnBytes = 48
)

// LoadARFF reads the ARFF file at path (".gz" decompressed); see ReadARFF.
func LoadARFF(path string, opt ...ARFFOptions) (dataframe.DataFrame, error) {
	rc, err := datasets.Open(path)
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	defer rc.Close()
	return ReadARFF(rc, path, opt...)
}
