package frames

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/credlab/credlab/credlab"
	"gonum.org/v1/gonum/mat"
)

// FormatVersion is the version of the model file format Save writes:
// "major.minor". LoadModel reads any file of the same major version (a newer
// minor version may add fields, which are ignored) and of major version 1,
// and refuses another major version with an error naming both. Version 2
// added the intercept (which a version 1 reader would ignore), the
// automatic choice, the warnings and Settings.Scale; a version 1 file is
// read as unscaled unless it has means and scales, without intercept.
// Version 3 added the kernel's per-column scales (which a version 2 reader
// would ignore, predicting with another kernel: hence a major version);
// 3.1 the choice's pool RMSE estimate and learning curve, and the Matérn
// kernels ("matern52", "matern32"; a 3.0 reader refuses them as an unknown
// kernel); 3.2 the prediction bounds of the automatic method
// (credlab.Model.Bounds; a 3.1 reader ignores them and predicts unclipped).
// Version 4 added the normal-score map of skewed design columns
// (credlab.Model.Transform), which a version 3 reader would ignore,
// predicting from unmapped columns: hence a major version; 4.1 the
// Manhattan kernel ("manhattan"; a 4.0 reader refuses it as an unknown
// kernel).
const FormatVersion = "4.1"

// oldestMajor is the oldest major format version LoadModel reads.
const oldestMajor = 1

// formatName identifies a credlab model file.
const formatName = "credlab-model"

// maxModelBytes bounds a model file LoadModel reads.
const maxModelBytes = 1 << 30

// modelFile is the JSON document of a saved model.
type modelFile struct {
	Format   string     `json:"format"`
	Version  string     `json:"version"`
	Method   string     `json:"method"`
	Settings Spec       `json:"settings"`
	Features []string   `json:"features"`
	Columns  []string   `json:"columns"`
	OneHot   []Encoding `json:"one_hot,omitempty"`
	Mean     []float64  `json:"mean,omitempty"`
	Scale    []float64  `json:"scale,omitempty"`
	Lambda   float64    `json:"lambda,omitempty"`
	Iter     int        `json:"iter,omitempty"`
	ValRMSE  *float64   `json:"val_rmse,omitempty"` // absent when NaN
	Rows     int        `json:"rows,omitempty"`
	Passes   float64    `json:"passes,omitempty"`
	// Intercept is added to every prediction (version 2).
	Intercept float64 `json:"intercept,omitempty"`
	// Bounds clip every prediction (version 3.2; credlab.Model.Bounds).
	Bounds []float64 `json:"bounds,omitempty"`
	// NormalScores maps skewed design columns before the kernel (version
	// 4; credlab.Model.Transform).
	NormalScores *normalScoresFile `json:"normal_scores,omitempty"`
	Choice       *Choice           `json:"choice,omitempty"`
	Warnings     []string          `json:"warnings,omitempty"`

	// A kernel expansion f(x) = sum_i coef_i k(x, centers_i) ...
	Kernel  *kernelFile `json:"kernel,omitempty"`
	Centers [][]float64 `json:"centers,omitempty"`
	// ... or a linear model f(x) = phi(x).coef.
	FeatureMap *featureMapFile `json:"feature_map,omitempty"`
	Coef       []float64       `json:"coef"`
}

// normalScoresFile is credlab.NormalScores: per mapped design column (its
// index), increasing knots and their scores.
type normalScoresFile struct {
	Columns []int       `json:"columns"`
	Knots   [][]float64 `json:"knots"`
	Scores  [][]float64 `json:"scores"`
}

type kernelFile struct {
	Name   string    `json:"name"`
	Sigma  float64   `json:"sigma,omitempty"`
	Scales []float64 `json:"scales,omitempty"` // per design column (version 3)
	Degree int       `json:"degree,omitempty"`
	Gamma  float64   `json:"gamma,omitempty"`
	Coef0  float64   `json:"coef0,omitempty"`
}

type featureMapFile struct {
	Type string `json:"type"` // raw, fourier, relu, nystrom
	Bias bool   `json:"bias,omitempty"`
	// fourier: phi(x) = sqrt(2/D) cos(W^T x + B)
	W [][]float64 `json:"w,omitempty"`
	B []float64   `json:"b,omitempty"`
	// relu: the layer matrices
	Layers [][][]float64 `json:"layers,omitempty"`
	// nystrom: A(x) = K(x, Centers) L^-T
	Kernel  *kernelFile `json:"kernel,omitempty"`
	Centers [][]float64 `json:"centers,omitempty"`
	Index   []int       `json:"index,omitempty"`
	L       [][]float64 `json:"l,omitempty"`
}

// Save writes the model as indented JSON: format version, method,
// settings, feature and design column names, one-hot levels, scaling,
// coefficients and centers or feature-map parameters.
func (m *Model) Save(w io.Writer) error {
	f, err := m.file()
	if err != nil {
		return err
	}
	enc := json.NewEncoder(w)
	enc.SetIndent("", " ")
	if err := enc.Encode(f); err != nil {
		return fmt.Errorf("frames: writing the model: %w", err)
	}
	return nil
}

// SaveFile writes the model to path (see Save).
func (m *Model) SaveFile(path string) error {
	var b bytes.Buffer
	if err := m.Save(&b); err != nil {
		return err
	}
	return os.WriteFile(path, b.Bytes(), 0o644)
}

func (m *Model) file() (*modelFile, error) {
	if m == nil || m.Predictor == nil {
		return nil, emptyf("save an empty model")
	}
	f := &modelFile{Format: formatName, Version: FormatVersion, Method: m.Spec.Method, Settings: m.Spec,
		Features: m.Features, Columns: m.Columns, OneHot: m.OneHot, Mean: m.Mean, Scale: m.Scale,
		Lambda: m.Lambda, Iter: m.Iter, Rows: m.Rows, Passes: m.Passes, Coef: m.Predictor.Coef,
		Intercept: m.Predictor.Intercept, Bounds: m.Predictor.Bounds, Choice: m.Choice, Warnings: m.Warnings}
	if t := m.Predictor.Transform; t != nil {
		f.NormalScores = &normalScoresFile{Columns: t.Columns, Knots: t.Knots, Scores: t.Scores}
	}
	if !math.IsNaN(m.ValRMSE) && !math.IsInf(m.ValRMSE, 0) {
		v := m.ValRMSE
		f.ValRMSE = &v
	}
	p := m.Predictor
	if p.Features == nil {
		k, err := kernelToFile(p.Kernel)
		if err != nil {
			return nil, err
		}
		f.Kernel, f.Centers = k, rowsOf(p.Centers)
	} else {
		fm, err := featureMapToFile(p.Features)
		if err != nil {
			return nil, err
		}
		f.FeatureMap = fm
	}
	return f, nil
}

func kernelToFile(k credlab.Kernel) (*kernelFile, error) {
	switch k := k.(type) {
	case credlab.GaussianKernel:
		return &kernelFile{Name: "gaussian", Sigma: k.Sigma, Scales: k.Scales}, nil
	case credlab.LaplacianKernel:
		return &kernelFile{Name: "laplacian", Sigma: k.Sigma, Scales: k.Scales}, nil
	case credlab.MaternKernel:
		return &kernelFile{Name: kernelFamilyName(k), Sigma: k.Sigma, Scales: k.Scales}, nil
	case credlab.ManhattanKernel:
		return &kernelFile{Name: "manhattan", Sigma: k.Sigma, Scales: k.Scales}, nil
	case credlab.LinearKernel:
		return &kernelFile{Name: "linear"}, nil
	case credlab.PolynomialKernel:
		return &kernelFile{Name: "polynomial", Degree: k.Degree, Gamma: k.Gamma, Coef0: k.Coef0}, nil
	}
	return nil, &credlab.ParamError{Name: "Model.Predictor.Kernel", Value: fmt.Sprintf("%T", k), Want: "a gaussian, Matérn, Manhattan, laplacian, linear or polynomial kernel (the kernels a model file holds)"}
}

func featureMapToFile(fm credlab.FeatureMap) (*featureMapFile, error) {
	switch fm := fm.(type) {
	case credlab.RawFeatures:
		return &featureMapFile{Type: "raw", Bias: fm.Bias}, nil
	case *credlab.RandomFourier:
		return &featureMapFile{Type: "fourier", W: rowsOf(fm.W), B: fm.B}, nil
	case *credlab.ReLUNetwork:
		f := &featureMapFile{Type: "relu"}
		for _, l := range fm.Layers {
			f.Layers = append(f.Layers, rowsOf(l))
		}
		return f, nil
	case *credlab.Nystrom:
		k, err := kernelToFile(fm.Kernel)
		if err != nil {
			return nil, err
		}
		return &featureMapFile{Type: "nystrom", Kernel: k, Centers: rowsOf(fm.Centers), Index: fm.Index, L: rowsOf(fm.L)}, nil
	}
	return nil, &credlab.ParamError{Name: "Model.Predictor.Features", Value: fmt.Sprintf("%T", fm), Want: "a raw, fourier, relu or nystrom feature map (the feature maps a model file holds)"}
}

func rowsOf(x *mat.Dense) [][]float64 {
	if x == nil {
		return nil
	}
	r, _ := x.Dims()
	out := make([][]float64, r)
	for i := range out {
		out[i] = append([]float64(nil), x.RawRowView(i)...)
	}
	return out
}

// LoadModel reads a model written by Save (LoadCSV and the other Load
// functions read data). A file of another major format
// version, a file that is not a credlab model, and a corrupt or
// inconsistent file are errors saying which.
func LoadModel(r io.Reader) (*Model, error) {
	b, err := io.ReadAll(io.LimitReader(r, maxModelBytes+1))
	if err != nil {
		return nil, fmt.Errorf("frames: reading the model file: %w", err)
	}
	if len(b) > maxModelBytes {
		return nil, corrupt("larger than %d bytes", maxModelBytes)
	}
	// Check the format and version before decoding the rest, so that a
	// file of another version fails on its version, not on a field.
	var head struct {
		Format  *string `json:"format"`
		Version *string `json:"version"`
	}
	if err := json.Unmarshal(b, &head); err != nil {
		return nil, corrupt("not valid JSON: %v", err)
	}
	if head.Format == nil || *head.Format != formatName {
		return nil, corrupt("not a credlab model file (no \"format\": %q field)", formatName)
	}
	if head.Version == nil {
		return nil, corrupt("no format version")
	}
	major, err := majorVersion(*head.Version)
	if err != nil {
		return nil, corrupt("%v", err)
	}
	want, _ := majorVersion(FormatVersion)
	if major < oldestMajor || major > want {
		return nil, &ModelVersionError{Version: *head.Version, Oldest: oldestMajor, Newest: want, Writes: FormatVersion}
	}
	var f modelFile
	dec := json.NewDecoder(bytes.NewReader(b))
	if err := dec.Decode(&f); err != nil {
		return nil, corrupt("%v", err)
	}
	if major == 1 {
		// Version 1 had no intercept and scaled only on request.
		f.Intercept, f.Choice, f.Warnings = 0, nil, nil
		f.Settings.Scale, f.Settings.NoIntercept = ScaleNone, true
		if f.Mean != nil {
			f.Settings.Scale = ScaleStandardize
		}
	}
	return f.model()
}

// LoadModelFile reads a model from path (see LoadModel).
func LoadModelFile(path string) (*Model, error) {
	fh, err := os.Open(path)
	if err != nil {
		return nil, err
	}
	defer fh.Close()
	m, err := LoadModel(fh)
	if err != nil {
		return nil, fmt.Errorf("%w (file %s)", err, path)
	}
	return m, nil
}

// ErrCorruptModel is wrapped by the errors of LoadModel for a model file that
// is not valid JSON or whose content is inconsistent.
var ErrCorruptModel = errors.New("corrupt model file")

func corrupt(format string, args ...any) error {
	return fmt.Errorf("frames: %w: %s", ErrCorruptModel, fmt.Sprintf(format, args...))
}

func majorVersion(v string) (int, error) {
	s, _, _ := strings.Cut(v, ".")
	n, err := strconv.Atoi(s)
	if err != nil || n < 0 || s != strconv.Itoa(n) {
		return 0, fmt.Errorf("format version %q is not \"major.minor\"", v)
	}
	return n, nil
}

// model validates the document and rebuilds the model.
func (f *modelFile) model() (*Model, error) {
	mi, err := lookupMethod(f.Method)
	if err != nil {
		return nil, corrupt("%v", err)
	}
	if f.Settings.Method != f.Method {
		return nil, corrupt("method %q but settings for %q", f.Method, f.Settings.Method)
	}
	nf, nc := len(f.Features), len(f.Columns)
	if nf == 0 || nc == 0 {
		return nil, corrupt("no feature columns")
	}
	if err := checkUnique(f.Features); err != nil {
		return nil, corrupt("features: %v", err)
	}
	// The design columns must follow from the features and encodings.
	var want []string
	k := 0
	for _, c := range f.Features {
		if k < len(f.OneHot) && f.OneHot[k].Column == c {
			if len(f.OneHot[k].Levels) == 0 {
				return nil, corrupt("one-hot column %q has no levels", c)
			}
			if err := checkUnique(f.OneHot[k].Levels); err != nil {
				return nil, corrupt("one-hot column %q: %v", c, err)
			}
			for _, l := range f.OneHot[k].Levels {
				want = append(want, c+"="+l)
			}
			k++
			continue
		}
		want = append(want, c)
	}
	if k != len(f.OneHot) {
		return nil, corrupt("one-hot encodings do not match the feature columns")
	}
	if len(want) != nc {
		return nil, corrupt("%d design columns, but the features and encodings give %d", nc, len(want))
	}
	for i := range want {
		if want[i] != f.Columns[i] {
			return nil, corrupt("design column %d is %q, want %q", i, f.Columns[i], want[i])
		}
	}
	if (f.Mean == nil) != (f.Scale == nil) || (f.Mean != nil && (len(f.Mean) != nc || len(f.Scale) != nc)) {
		return nil, corrupt("scaling has %d means and %d scales for %d columns", len(f.Mean), len(f.Scale), nc)
	}
	if err := finite("mean", f.Mean); err != nil {
		return nil, err
	}
	for j, s := range f.Scale {
		if !(s > 0) || math.IsInf(s, 0) {
			return nil, corrupt("scale[%d] = %v: must be positive", j, s)
		}
	}
	if len(f.Coef) == 0 {
		return nil, corrupt("no coefficients")
	}
	if math.IsNaN(f.Intercept) || math.IsInf(f.Intercept, 0) {
		return nil, corrupt("intercept %v: must be finite", f.Intercept)
	}
	if err := finite("coef", f.Coef); err != nil {
		return nil, err
	}
	if err := finite("bounds", f.Bounds); err != nil {
		return nil, err
	}
	if f.Bounds != nil && (len(f.Bounds) != 2 || !(f.Bounds[0] < f.Bounds[1])) {
		return nil, corrupt("bounds %v: must be two values, lower first", f.Bounds)
	}
	p := &credlab.Model{Coef: f.Coef, Intercept: f.Intercept, Bounds: f.Bounds}
	if t := f.NormalScores; t != nil {
		p.Transform = &credlab.NormalScores{Columns: t.Columns, Knots: t.Knots, Scores: t.Scores}
		if err := p.Transform.Check(nc); err != nil {
			return nil, corrupt("normal scores: %v", err)
		}
	}
	switch {
	case f.Kernel != nil && f.FeatureMap != nil:
		return nil, corrupt("both a kernel and a feature map")
	case f.Kernel != nil:
		if mi.feature {
			return nil, corrupt("method %s needs a feature map, not a kernel", mi.name)
		}
		if p.Kernel, err = kernelFromFile(f.Kernel); err != nil {
			return nil, err
		}
		if s := f.Kernel.Scales; s != nil && len(s) != nc {
			return nil, corrupt("%d kernel scales for %d design columns", len(s), nc)
		}
		if p.Centers, err = matrixOf("centers", f.Centers, len(f.Coef), nc); err != nil {
			return nil, err
		}
	case f.FeatureMap != nil:
		if !mi.feature {
			return nil, corrupt("method %s needs a kernel and centers, not a feature map", mi.name)
		}
		if p.Features, err = featureMapFromFile(f.FeatureMap, nc, len(f.Coef)); err != nil {
			return nil, err
		}
	default:
		return nil, corrupt("neither a kernel nor a feature map")
	}
	m := &Model{Spec: f.Settings, Features: f.Features, Columns: f.Columns, OneHot: f.OneHot,
		Mean: f.Mean, Scale: f.Scale, Lambda: f.Lambda, Iter: f.Iter, ValRMSE: math.NaN(), Rows: f.Rows, Passes: f.Passes, Predictor: p,
		Choice: f.Choice, Warnings: f.Warnings}
	if f.ValRMSE != nil {
		m.ValRMSE = *f.ValRMSE
	}
	return m, nil
}

func finite(what string, v []float64) error {
	for i, x := range v {
		if math.IsNaN(x) || math.IsInf(x, 0) {
			return corrupt("%s[%d] = %v: must be finite", what, i, x)
		}
	}
	return nil
}

// matrixOf checks a rows x cols nested array (rows < 0: any number > 0).
func matrixOf(what string, v [][]float64, rows, cols int) (*mat.Dense, error) {
	if len(v) == 0 || (rows >= 0 && len(v) != rows) {
		return nil, corrupt("%s has %d rows, want %d", what, len(v), rows)
	}
	if cols < 0 {
		cols = len(v[0])
	}
	if cols == 0 {
		return nil, corrupt("%s has empty rows", what)
	}
	if int64(len(v))*int64(cols) > int64(maxModelBytes) {
		return nil, corrupt("%s is too large", what)
	}
	data := make([]float64, 0, len(v)*cols)
	for i, r := range v {
		if len(r) != cols {
			return nil, corrupt("%s row %d has %d values, want %d", what, i, len(r), cols)
		}
		if err := finite(what, r); err != nil {
			return nil, err
		}
		data = append(data, r...)
	}
	return mat.NewDense(len(v), cols, data), nil
}

func kernelFromFile(k *kernelFile) (credlab.Kernel, error) {
	var out credlab.Kernel
	switch k.Name {
	case "gaussian":
		out = credlab.GaussianKernel{Sigma: k.Sigma, Scales: k.Scales}
	case "laplacian":
		out = credlab.LaplacianKernel{Sigma: k.Sigma, Scales: k.Scales}
	case "matern52":
		out = credlab.MaternKernel{Nu: 2.5, Sigma: k.Sigma, Scales: k.Scales}
	case "matern32":
		out = credlab.MaternKernel{Nu: 1.5, Sigma: k.Sigma, Scales: k.Scales}
	case "manhattan":
		out = credlab.ManhattanKernel{Sigma: k.Sigma, Scales: k.Scales}
	case "linear":
		out = credlab.LinearKernel{}
	case "polynomial":
		if k.Degree < 0 || k.Degree > 64 {
			return nil, corrupt("polynomial degree %d out of range", k.Degree)
		}
		out = credlab.PolynomialKernel{Degree: k.Degree, Gamma: k.Gamma, Coef0: k.Coef0}
	default:
		return nil, corrupt("unknown kernel %q", k.Name)
	}
	if err := out.Validate(); err != nil {
		return nil, corrupt("%v", err)
	}
	return out, nil
}

// featureMapFromFile rebuilds a feature map on d inputs with D outputs.
func featureMapFromFile(f *featureMapFile, d, D int) (credlab.FeatureMap, error) {
	switch f.Type {
	case "raw":
		want := d
		if f.Bias {
			want++
		}
		if want != D {
			return nil, corrupt("raw features give %d values but there are %d coefficients", want, D)
		}
		return credlab.RawFeatures{Bias: f.Bias}, nil
	case "fourier":
		w, err := matrixOf("fourier w", f.W, d, D)
		if err != nil {
			return nil, err
		}
		if len(f.B) != D {
			return nil, corrupt("fourier b has %d values, want %d", len(f.B), D)
		}
		if err := finite("fourier b", f.B); err != nil {
			return nil, err
		}
		return &credlab.RandomFourier{W: w, B: f.B}, nil
	case "relu":
		if len(f.Layers) == 0 {
			return nil, corrupt("relu network without layers")
		}
		net := &credlab.ReLUNetwork{}
		in := d
		for i, l := range f.Layers {
			m, err := matrixOf(fmt.Sprintf("relu layer %d", i), l, in, -1)
			if err != nil {
				return nil, err
			}
			net.Layers = append(net.Layers, m)
			_, in = m.Dims()
		}
		if in != D {
			return nil, corrupt("relu network gives %d values but there are %d coefficients", in, D)
		}
		return net, nil
	case "nystrom":
		if f.Kernel == nil {
			return nil, corrupt("nystrom features without a kernel")
		}
		k, err := kernelFromFile(f.Kernel)
		if err != nil {
			return nil, err
		}
		c, err := matrixOf("nystrom centers", f.Centers, D, d)
		if err != nil {
			return nil, err
		}
		l, err := matrixOf("nystrom l", f.L, D, D)
		if err != nil {
			return nil, err
		}
		for i := 0; i < D; i++ {
			if !(l.At(i, i) > 0) {
				return nil, corrupt("nystrom l[%d,%d] = %v: the factor's diagonal must be positive", i, i, l.At(i, i))
			}
			for j := i + 1; j < D; j++ {
				if l.At(i, j) != 0 {
					return nil, corrupt("nystrom l is not lower triangular")
				}
			}
		}
		if len(f.Index) != D {
			return nil, corrupt("nystrom index has %d entries, want %d", len(f.Index), D)
		}
		return &credlab.Nystrom{Kernel: k, Centers: c, Index: f.Index, L: l}, nil
	}
	return nil, corrupt("unknown feature map %q", f.Type)
}
