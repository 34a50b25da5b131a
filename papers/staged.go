package papers

import (
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strconv"
	"strings"

	"github.com/credlab/credlab/credlab"
	"github.com/credlab/credlab/frames"

	"github.com/credlab/credlab/internal/datasets"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
	"gonum.org/v1/gonum/mat"
)

// StagedTarget is the target column of the frames LoadStaged returns.
const StagedTarget = "y"

// stagedSet reads one staged data set: training and test features and
// targets (test nil without a standard split).
type stagedSet struct {
	files []string // paths relative to the data directory, checked first
	about string
	load  func(dir string) (xtr *mat.Dense, ytr []float64, xte *mat.Dense, yte []float64, err error)
}

var stagedSets = map[string]stagedSet{
	"usps": {
		files: []string{"usps/zip.train.gz", "usps/zip.test.gz"},
		about: "USPS digits: 7291 training and 2007 test images of 16 x 16 pixels mapped from [-1, 1] to [0, 1]; y is the digit",
		load: func(dir string) (*mat.Dense, []float64, *mat.Dense, []float64, error) {
			var x [2]*mat.Dense
			var y [2][]float64
			for i, name := range []string{"zip.train.gz", "zip.test.gz"} {
				xi, yi, err := loadUSPS(filepath.Join(dir, "usps", name))
				if err != nil {
					return nil, nil, nil, nil, err
				}
				raw := xi.RawMatrix()
				for j := range raw.Data {
					raw.Data[j] = (raw.Data[j] + 1) / 2
				}
				x[i], y[i] = xi, yi
			}
			return x[0], y[0], x[1], y[1], nil
		},
	},
	"breast_cancer_wisconsin": {
		files: []string{"breast_cancer_wisconsin/breast_cancer.csv"},
		about: "Breast Cancer Wisconsin (diagnostic): 569 rows, 30 features, no split; y = +1 benign, -1 malignant",
		load: func(dir string) (*mat.Dense, []float64, *mat.Dense, []float64, error) {
			// A shape line "569,30,malignant,benign", then 30 features
			// and a 0/1 target (0 = malignant) per line.
			f, err := datasets.Open(filepath.Join(dir, "breast_cancer_wisconsin", "breast_cancer.csv"))
			if err != nil {
				return nil, nil, nil, nil, err
			}
			defer f.Close()
			raw, err := io.ReadAll(f)
			if err != nil {
				return nil, nil, nil, nil, err
			}
			text := string(raw)
			if i := strings.IndexByte(text, '\n'); i >= 0 {
				text = text[i+1:]
			}
			xy, err := readNumeric(frames.ReadCSV(strings.NewReader(text), "breast_cancer.csv", frames.CSVOptions{NoHeader: true}))
			if err != nil {
				return nil, nil, nil, nil, err
			}
			_, c := xy.Dims()
			x, y, err := splitColumn(xy, c-1, "breast_cancer.csv")
			if err != nil {
				return nil, nil, nil, nil, err
			}
			for i, v := range y {
				if v != 0 && v != 1 {
					return nil, nil, nil, nil, fmt.Errorf("breast_cancer.csv: target %v in data row %d, want 0 or 1", v, i+1)
				}
				y[i] = 2*v - 1
			}
			return x, y, nil, nil, nil
		},
	},
	"coil2000": {
		files: []string{"coil2000/ticdata2000.txt", "coil2000/ticeval2000.txt", "coil2000/tictgts2000.txt"},
		about: "COIL 2000 (the NYTRO paper's InsuranceCompany): 5822 training and 4000 test rows, 85 features; y = +1 for a caravan policy, else -1 (non-commercial use only)",
		load: func(dir string) (*mat.Dense, []float64, *mat.Dense, []float64, error) {
			s, err := loadCOIL2000(filepath.Join(dir, "coil2000"))
			if err != nil {
				return nil, nil, nil, nil, err
			}
			return s.XTrain, plusMinus(s.YTrain), s.XTest, plusMinus(s.YTest), nil
		},
	},
	"a9a": {
		files: []string{"a9a/a9a", "a9a/a9a.t"},
		about: "a9a (UCI Adult, binary features): 32561 training and 16281 test rows, 123 features; y = +1 or -1",
		load: func(dir string) (*mat.Dense, []float64, *mat.Dense, []float64, error) {
			s, err := loadA9A(filepath.Join(dir, "a9a"))
			if err != nil {
				return nil, nil, nil, nil, err
			}
			return s.XTrain, s.YTrain, s.XTest, s.YTest, nil
		},
	},
	"cpusmall": {
		files: []string{"cpusmall/cpu_small.arff"},
		about: "cpuSmall (Delve comp-activ): 8192 rows, 12 features, no split; y is usr, the share of time in user mode",
		load: func(dir string) (*mat.Dense, []float64, *mat.Dense, []float64, error) {
			x, y, err := loadCPUSmall(filepath.Join(dir, "cpusmall"))
			return x, y, nil, nil, err
		},
	},
}

// plusMinus maps 0/1 labels to -1/+1.
func plusMinus(y []float64) []float64 {
	out := make([]float64, len(y))
	for i, v := range y {
		out[i] = 2*v - 1
	}
	return out
}

// StagedNames lists the data sets LoadStaged reads, sorted.
func StagedNames() []string {
	var out []string
	for k := range stagedSets {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// DescribeStaged returns a one-line description of a staged data set, or ""
// for an unknown name.
func DescribeStaged(name string) string { return stagedSets[name].about }

// LoadStaged reads one of the data sets staged in dataDir (the project's
// ../shared/data; see its README) by name: "usps", "breast_cancer_wisconsin",
// "coil2000", "a9a" or "cpusmall" (StagedNames). Features are the columns
// "x1" ... "xd" and the target is "y"; binary labels are -1/+1 (see
// DescribeStaged). test has no rows for a set without a standard split
// (use SplitRows).
//
// A missing file is an error that wraps fs.ErrNotExist and names the
// directory, so that a notebook can say the data are missing.
func LoadStaged(dataDir, name string) (train, test dataframe.DataFrame, err error) {
	var none dataframe.DataFrame
	set, ok := stagedSets[name]
	if !ok {
		return none, none, &credlab.ParamError{Name: "staged data set", Value: strconv.Quote(name), Want: "one of " + strings.Join(StagedNames(), ", ")}
	}
	for _, f := range set.files {
		if _, err := os.Stat(filepath.Join(dataDir, f)); err != nil {
			if errors.Is(err, fs.ErrNotExist) {
				return none, none, fmt.Errorf("papers: staged data set %q not found: %s is missing (set CREDLAB_DATA to the data directory): %w",
					name, filepath.Join(dataDir, f), fs.ErrNotExist)
			}
			return none, none, fmt.Errorf("papers: staged data set %q: %w", name, err)
		}
	}
	xtr, ytr, xte, yte, err := set.load(dataDir)
	if err != nil {
		return none, none, fmt.Errorf("papers: loading %s: %w", name, err)
	}
	if train, err = stagedFrame(xtr, ytr); err != nil {
		return none, none, err
	}
	if xte != nil {
		if test, err = stagedFrame(xte, yte); err != nil {
			return none, none, err
		}
	}
	return train, test, nil
}

// stagedFrame returns the features x1..xd and the target y as a frame.
func stagedFrame(x *mat.Dense, y []float64) (dataframe.DataFrame, error) {
	df, err := frames.FromMatrix(x)
	if err != nil {
		return df, err
	}
	df = df.Mutate(series.New(y, series.Float, StagedTarget))
	if df.Err != nil {
		return df, fmt.Errorf("papers: adding the target: %w", df.Err)
	}
	return df, nil
}
