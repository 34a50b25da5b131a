package staged

import (
	"fmt"
	"io"
	"path/filepath"
	"sort"
	"strings"

	"github.com/credlab/credlab/frames"
	"github.com/credlab/credlab/internal/datasets"
	"gonum.org/v1/gonum/mat"
)

// Set reads one staged data set: training and test features and targets
// (test nil without a standard split).
type Set struct {
	Files []string // paths relative to the data directory, checked first
	About string
	Load  func(dir string) (xtr *mat.Dense, ytr []float64, xte *mat.Dense, yte []float64, err error)
}

// Sets are the staged data sets by name.
var Sets = map[string]Set{
	"usps": {
		Files: []string{"usps/zip.train.gz", "usps/zip.test.gz"},
		About: "USPS digits: 7291 training and 2007 test images of 16 x 16 pixels mapped from [-1, 1] to [0, 1]; y is the digit",
		Load:  USPS,
	},
	"breast_cancer_wisconsin": {
		Files: []string{"breast_cancer_wisconsin/breast_cancer.csv"},
		About: "Breast Cancer Wisconsin (diagnostic): 569 rows, 30 features, no split; y = +1 benign, -1 malignant",
		Load: func(dir string) (*mat.Dense, []float64, *mat.Dense, []float64, error) {
			x, y, err := BreastCancer(dir)
			return x, y, nil, nil, err
		},
	},
	"coil2000": {
		Files: []string{"coil2000/ticdata2000.txt", "coil2000/ticeval2000.txt", "coil2000/tictgts2000.txt"},
		About: "COIL 2000 (the NYTRO paper's InsuranceCompany): 5822 training and 4000 test rows, 85 features; y = +1 for a caravan policy, else -1 (non-commercial use only)",
		Load: func(dir string) (*mat.Dense, []float64, *mat.Dense, []float64, error) {
			s, err := COIL2000(filepath.Join(dir, "coil2000"))
			if err != nil {
				return nil, nil, nil, nil, err
			}
			return s.XTrain, plusMinus(s.YTrain), s.XTest, plusMinus(s.YTest), nil
		},
	},
	"a9a": {
		Files: []string{"a9a/a9a", "a9a/a9a.t"},
		About: "a9a (UCI Adult, binary features): 32561 training and 16281 test rows, 123 features; y = +1 or -1",
		Load: func(dir string) (*mat.Dense, []float64, *mat.Dense, []float64, error) {
			s, err := A9A(filepath.Join(dir, "a9a"))
			if err != nil {
				return nil, nil, nil, nil, err
			}
			return s.XTrain, s.YTrain, s.XTest, s.YTest, nil
		},
	},
	"cpusmall": {
		Files: []string{"cpusmall/cpu_small.arff"},
		About: "cpuSmall (Delve comp-activ): 8192 rows, 12 features, no split; y is usr, the share of time in user mode",
		Load: func(dir string) (*mat.Dense, []float64, *mat.Dense, []float64, error) {
			x, y, err := CPUSmall(filepath.Join(dir, "cpusmall"))
			return x, y, nil, nil, err
		},
	},
}

// Names lists the staged data sets, sorted.
func Names() []string {
	var out []string
	for k := range Sets {
		out = append(out, k)
	}
	sort.Strings(out)
	return out
}

// USPS reads the USPS digits from dir/usps: the training and the test
// images with their pixels mapped from [-1, 1] (background -1) to [0, 1]
// (background 0), (v+1)/2, the scale of the MNIST images divided by 255,
// and their digits.
func USPS(dir string) (xtr *mat.Dense, ytr []float64, xte *mat.Dense, yte []float64, err error) {
	var x [2]*mat.Dense
	var y [2][]float64
	for i, name := range []string{"zip.train.gz", "zip.test.gz"} {
		xi, yi, err := USPSFile(filepath.Join(dir, "usps", name))
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
}

// BreastCancer reads the Breast Cancer Wisconsin (diagnostic) set from
// dir/breast_cancer_wisconsin: 569 rows of 30 features and the labels
// +1 (benign) and -1 (malignant).
func BreastCancer(dir string) (*mat.Dense, []float64, error) {
	// A shape line "569,30,malignant,benign", then 30 features
	// and a 0/1 target (0 = malignant) per line.
	f, err := datasets.Open(filepath.Join(dir, "breast_cancer_wisconsin", "breast_cancer.csv"))
	if err != nil {
		return nil, nil, err
	}
	defer f.Close()
	raw, err := io.ReadAll(f)
	if err != nil {
		return nil, nil, err
	}
	text := string(raw)
	if i := strings.IndexByte(text, '\n'); i >= 0 {
		text = text[i+1:]
	}
	xy, err := readNumeric(frames.ReadCSV(strings.NewReader(text), "breast_cancer.csv", frames.CSVOptions{NoHeader: true}))
	if err != nil {
		return nil, nil, err
	}
	_, c := xy.Dims()
	x, y, err := splitColumn(xy, c-1, "breast_cancer.csv")
	if err != nil {
		return nil, nil, err
	}
	for i, v := range y {
		if v != 0 && v != 1 {
			return nil, nil, fmt.Errorf("breast_cancer.csv: target %v in data row %d, want 0 or 1", v, i+1)
		}
		y[i] = 2*v - 1
	}
	return x, y, nil
}

// plusMinus maps 0/1 labels to -1/+1.
func plusMinus(y []float64) []float64 {
	out := make([]float64, len(y))
	for i, v := range y {
		out[i] = 2*v - 1
	}
	return out
}
