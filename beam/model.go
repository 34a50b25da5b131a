package credbeam

import (
	"encoding/json"
	"fmt"
	"math"

	"github.com/credlab/credlab/credlab"
	"gonum.org/v1/gonum/mat"
)

// ModelFormat names the JSON document NystromFit writes.
const ModelFormat = "credlab-beam-model/1"

// ModelFile is the model NystromFit writes as JSON: the kernel expansion
// f(x) = sum_i Coef_i k(x, Centers_i) with a Gaussian kernel of bandwidth
// Sigma, on the Features columns, predicting Target.
type ModelFile struct {
	Format    string      `json:"format"`
	Method    string      `json:"method"` // NKRLS or NYTRO
	Kernel    string      `json:"kernel"` // gaussian
	Sigma     float64     `json:"sigma"`
	Features  []string    `json:"features"`
	Target    string      `json:"target"`
	Centers   [][]float64 `json:"centers"` // in the factor's pivot order
	Coef      []float64   `json:"coef"`
	Lambda    float64     `json:"lambda,omitempty"`
	Iter      int         `json:"iter,omitempty"`
	ValRMSE   *float64    `json:"val_rmse,omitempty"` // absent without validation
	TrainRows int         `json:"train_rows"`
	ValRows   int         `json:"val_rows"`
	M         int         `json:"m"`
	Rank      int         `json:"rank"`
	Seed      uint64      `json:"seed"`
}

// NewModelFile describes fit as a ModelFile.
func NewModelFile(cfg NystromSpec, spec NystromParams, fit *credlab.Fit, tv *TrainVal) (*ModelFile, error) {
	feats, err := cfg.FeatureNames()
	if err != nil {
		return nil, err
	}
	m := &ModelFile{Format: ModelFormat, Method: fit.Method, Kernel: "gaussian", Sigma: spec.Sigma, Features: feats, Target: cfg.Target,
		Coef: fit.Model.Coef, Lambda: fit.Lambda, Iter: fit.Iter, TrainRows: tv.Train.Rows, ValRows: tv.Val.Rows,
		M: len(spec.Centers), Rank: spec.Rank, Seed: cfg.Seed}
	c := fit.Model.Centers
	r, _ := c.Dims()
	for i := range r {
		m.Centers = append(m.Centers, append([]float64(nil), c.RawRowView(i)...))
	}
	if v := fit.ValRMSE; !math.IsNaN(v) && !math.IsInf(v, 0) {
		m.ValRMSE = &v
	}
	return m, nil
}

// ParseModel reads a ModelFile from its JSON.
func ParseModel(b []byte) (*ModelFile, error) {
	var m ModelFile
	if err := json.Unmarshal(b, &m); err != nil {
		return nil, fmt.Errorf("credbeam: model file: %w", err)
	}
	if m.Format != ModelFormat {
		return nil, fmt.Errorf("credbeam: model file of format %q, want %q", m.Format, ModelFormat)
	}
	return &m, nil
}

// Model returns the credlab model, to predict with: O(m d).
func (m *ModelFile) Model() (*credlab.Model, error) {
	if len(m.Centers) == 0 || len(m.Centers) != len(m.Coef) {
		return nil, fmt.Errorf("credbeam: model file with %d centers and %d coefficients", len(m.Centers), len(m.Coef))
	}
	d := len(m.Centers[0])
	c := mat.NewDense(len(m.Centers), d, nil)
	for i, r := range m.Centers {
		if len(r) != d {
			return nil, fmt.Errorf("credbeam: model center %d has %d values, want %d", i, len(r), d)
		}
		c.SetRow(i, r)
	}
	return &credlab.Model{Kernel: credlab.GaussianKernel{Sigma: m.Sigma}, Centers: c, Coef: m.Coef}, nil
}
