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
// value outside its declared levels is a *ParseError, and so is any other
// malformed line, with its number; name labels errors. The parser is
// internal/datasets' ReadARFFColumns, shared with the numeric loaders.
func ReadARFF(r io.Reader, name string) (dataframe.DataFrame, error) {
	attrs, _, err := datasets.ReadARFFColumns(r, name, false)
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

// LoadARFF reads the ARFF file at path (".gz" decompressed); see ReadARFF.
func LoadARFF(path string) (dataframe.DataFrame, error) {
	rc, err := datasets.Open(path)
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	defer rc.Close()
	return ReadARFF(rc, path)
}
