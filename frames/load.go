package frames

import (
	"fmt"
	"io"
	"path/filepath"
	"strconv"
	"strings"

	"github.com/credlab/credlab/credlab"

	"github.com/credlab/credlab/internal/datasets"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"gonum.org/v1/gonum/mat"
)

// LIBSVMOptions configures ReadLIBSVM and LoadLIBSVM.
type LIBSVMOptions struct {
	// BadAsMissing reads a label or feature value that is not a finite
	// number as a missing value, as CSVOptions.BadAsMissing does for CSV.
	// Without it such a value is a *CellError.
	BadAsMissing bool
}

func libsvmOptions(opt []LIBSVMOptions) datasets.Options {
	o := datasets.Options{NumBytes: floatColumnBytes}
	if len(opt) > 0 {
		o.BadAsMissing = opt[0].BadAsMissing
	}
	return o
}

// ReadLIBSVM reads LIBSVM (svmlight) sparse rows "<label> <index>:<value>
// ..." into a dense frame with the label in column "y" and feature j in
// column "x<j>" (1-based, as in the file). d is the number of features; 0
// infers it from the largest index. name labels errors. A label or value
// that is not a finite number is a *CellError naming its column, unless
// opt.BadAsMissing reads it as missing. The dense frame is checked against
// the memory limit (credlab.EffectiveMemoryLimit) before it is built: a
// *credlab.TooLargeError refuses it (a stray huge index makes it wide).
// At most one opt is used.
func ReadLIBSVM(r io.Reader, name string, d int, opt ...LIBSVMOptions) (dataframe.DataFrame, error) {
	x, y, err := datasets.ReadLIBSVM(r, name, d, libsvmOptions(opt))
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	return labeledFrame("y", y, x, "x", 1), nil
}

// LoadLIBSVM reads the LIBSVM file at path (".gz" decompressed); see
// ReadLIBSVM.
func LoadLIBSVM(path string, d int, opt ...LIBSVMOptions) (dataframe.DataFrame, error) {
	x, y, err := datasets.LoadLIBSVM(path, d, libsvmOptions(opt))
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	return labeledFrame("y", y, x, "x", 1), nil
}

// idxOptions has the IDX readers count the frame's columns in their memory
// check.
var idxOptions = datasets.Options{NumBytes: floatColumnBytes}

// ReadIDX reads MNIST-style IDX images and, when labels is not nil, their
// labels into a frame: a "label" column (if any), then one column per
// pixel, "pixel0" ... "pixel<k-1>", in row-major order, with the raw
// values (0..255 for MNIST). The counts must agree. The sizes the headers
// declare, as a matrix and as the frame's columns, are checked against the
// memory limit (credlab.EffectiveMemoryLimit) before anything is
// allocated: a *credlab.TooLargeError refuses them.
func ReadIDX(images, labels io.Reader) (dataframe.DataFrame, error) {
	img, err := datasets.ReadIDX(images, "images", idxOptions)
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	var lab *datasets.IDX
	if labels != nil {
		if lab, err = datasets.ReadIDX(labels, "labels", idxOptions); err != nil {
			return dataframe.DataFrame{}, err
		}
	}
	return idxFrame(img, lab)
}

// LoadIDX reads an IDX image file and, when labelsPath is not empty, its
// label file (".gz" decompressed); see ReadIDX. The staged Fashion-MNIST
// test set is LoadIDX(dir+"/t10k-images-idx3-ubyte.gz",
// dir+"/t10k-labels-idx1-ubyte.gz").
func LoadIDX(imagesPath, labelsPath string) (dataframe.DataFrame, error) {
	img, err := datasets.LoadIDX(imagesPath, idxOptions)
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	var lab *datasets.IDX
	if labelsPath != "" {
		if lab, err = datasets.LoadIDX(labelsPath, idxOptions); err != nil {
			return dataframe.DataFrame{}, err
		}
	}
	return idxFrame(img, lab)
}

func idxFrame(img, lab *datasets.IDX) (dataframe.DataFrame, error) {
	if lab == nil {
		return labeledFrame("", nil, img.Matrix(), "pixel", 0), nil
	}
	if len(lab.Dims) != 1 {
		return dataframe.DataFrame{}, shapef("labels have dimensions %v, want one dimension", lab.Dims)
	}
	if lab.Dims[0] != img.Dims[0] {
		return dataframe.DataFrame{}, shapef("%d images but %d labels", img.Dims[0], lab.Dims[0])
	}
	return labeledFrame("label", lab.Data, img.Matrix(), "pixel", 0), nil
}

// labeledFrame builds a frame with an optional label column and the
// columns of x named prefix+index (from first).
func labeledFrame(label string, y []float64, x *mat.Dense, prefix string, first int) dataframe.DataFrame {
	n, d := x.Dims()
	cols := make([]series.Series, 0, d+1)
	if label != "" {
		cols = append(cols, series.New(y, series.Float, label))
	}
	raw := x.RawMatrix()
	col := make([]float64, n)
	for j := 0; j < d; j++ {
		for i := range col {
			col[i] = raw.Data[i*raw.Stride+j]
		}
		cols = append(cols, series.New(col, series.Float, fmt.Sprintf("%s%d", prefix, j+first)))
	}
	return dataframe.New(cols...)
}

// LoadOptions configures LoadData. The zero value infers the format from
// the file name and reads CSV with the zero CSVOptions.
type LoadOptions struct {
	// Format is "csv", "tsv", "arff", "libsvm", "idx" or "parquet" (read
	// when package github.com/credlab/credlab/frames/parquet is imported),
	// or a format RegisterFormat added; empty: from the name (see
	// DataFormat).
	Format string
	// CSV configures CSV and TSV files (Comma is set for "tsv").
	CSV CSVOptions
	// Labels is an IDX label file read beside IDX images (optional).
	Labels string
	// Dim is the number of LIBSVM features; 0 infers it.
	Dim int
	// BadAsMissing reads a value that is not a finite number where a
	// number is expected (a cell of a numeric CSV column, a value of a
	// numeric ARFF attribute, a LIBSVM label or value) as a missing value
	// instead of returning a *CellError. CSV.BadAsMissing does the same,
	// for every format too; either one is enough.
	BadAsMissing bool
}

// Formats lists the formats LoadData reads: "parquet" (and any format
// RegisterFormat adds) when its package is imported.
var Formats = []string{"csv", "tsv", "arff", "libsvm", "idx", "parquet"}

// DataFormat returns the format of a data file from its name, ignoring a
// ".gz" suffix: ".csv" is csv, ".tsv" and ".tab" tsv, ".arff" arff,
// ".libsvm", ".svm" and ".svmlight" libsvm, "-ubyte" or ".idx" names
// (such as train-images-idx3-ubyte) idx, ".parquet" and ".parq" parquet,
// and the extensions of formats added by RegisterFormat theirs. Other
// names return "".
func DataFormat(path string) string {
	base := strings.ToLower(filepath.Base(strings.TrimSuffix(path, ".gz")))
	ext := filepath.Ext(base)
	if f := builtinExts[ext]; f != "" {
		return f
	}
	if strings.HasSuffix(base, "-ubyte") || strings.HasSuffix(base, ".ubyte") {
		return "idx"
	}
	if ext == "" {
		return ""
	}
	return registeredFormat(ext)
}

// LoadData reads the data file at path in any format of Formats, chosen by
// opt.Format or the name, decompressing ".gz" files; with opt.CSV.Whitespace
// a name that does not tell the format (such as zip.train) is read as CSV
// separated by blanks. Otherwise a name that does not tell the format, or
// an unknown Format, is a *credlab.ParamError naming LoadOptions.Format. opt.BadAsMissing (or opt.CSV.BadAsMissing) applies
// to CSV, TSV, ARFF and LIBSVM files; IDX and Parquet files hold typed
// values, no text to misread. Parquet files are read by package
// github.com/credlab/credlab/frames/parquet: without it imported, they are
// a *FormatNotLinkedError saying to import it.
func LoadData(path string, opt LoadOptions) (dataframe.DataFrame, error) {
	bad := opt.BadAsMissing || opt.CSV.BadAsMissing
	opt.CSV.BadAsMissing = bad
	f := strings.ToLower(opt.Format)
	if f == "" {
		if f = DataFormat(path); f == "" && opt.CSV.Whitespace {
			f = "csv"
		} else if f == "" {
			return dataframe.DataFrame{}, &credlab.ParamError{Name: "LoadOptions.Format", Value: strconv.Quote(""),
				Want: fmt.Sprintf("one of %s: the name %s does not tell the format", strings.Join(Formats, ", "), filepath.Base(path))}
		}
	}
	switch f {
	case "csv":
		return LoadCSV(path, opt.CSV)
	case "tsv":
		o := opt.CSV
		if o.Comma == 0 && !o.Whitespace {
			o.Comma = '\t'
		}
		return LoadCSV(path, o)
	case "arff":
		return LoadARFF(path, ARFFOptions{BadAsMissing: bad})
	case "libsvm":
		return LoadLIBSVM(path, opt.Dim, LIBSVMOptions{BadAsMissing: bad})
	case "idx":
		return LoadIDX(path, opt.Labels)
	}
	if df, ok, err := loadRegistered(path, f); ok {
		return df, err
	}
	return dataframe.DataFrame{}, &credlab.ParamError{Name: "LoadOptions.Format", Value: strconv.Quote(opt.Format), Want: "one of " + strings.Join(Formats, ", ")}
}
