package frames

import (
	"math"
	"strconv"
	"strings"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/dataframe"
	"github.com/go-gota/gota/series"
)

// Score columns: the rows scored and the errors on them.
const (
	ScoreRowsColumn = "rows"
	ScoreRMSEColumn = "rmse"
	ScoreMAEColumn  = "mae"
	ScoreR2Column   = "r2"
)

// Scores are a model's errors on rows whose target is known.
type Scores struct {
	// Rows is the number of rows scored: those with a target and a
	// prediction (rows with a missing target, or a missing feature under
	// PredictOptions.SkipMissing or Spec.DropNA, are left out).
	Rows int
	// RMSE is sqrt(mean((p - y)^2)), MAE mean(|p - y|), and R2 the
	// coefficient of determination 1 - sum((p - y)^2) / sum((y - mean(y))^2)
	// (NaN when the targets scored are all equal).
	RMSE, MAE, R2 float64
}

// ScoreValues returns the scores of predictions p against targets y, over
// the pairs where neither is NaN, in O(n). No such pair wraps
// credlab.ErrEmpty; slices of different lengths wrap credlab.ErrShape.
func ScoreValues(p, y []float64) (Scores, error) {
	if len(p) != len(y) {
		return Scores{}, shapef("%d predictions for %d targets", len(p), len(y))
	}
	var pp, yy []float64
	for i, v := range y {
		if !math.IsNaN(v) && !math.IsNaN(p[i]) {
			pp, yy = append(pp, p[i]), append(yy, v)
		}
	}
	if len(yy) == 0 {
		return Scores{}, emptyf("no row with both a target and a prediction to score")
	}
	mean, abs, tot := 0.0, 0.0, 0.0
	for i, v := range yy {
		mean += v
		abs += math.Abs(pp[i] - v)
	}
	mean /= float64(len(yy))
	for _, v := range yy {
		tot += (v - mean) * (v - mean)
	}
	r := credlab.RMSE(pp, yy)
	s := Scores{Rows: len(yy), RMSE: r, MAE: abs / float64(len(yy)), R2: math.NaN()}
	if tot > 0 {
		s.R2 = 1 - r*r*float64(len(yy))/tot
	}
	return s, nil
}

// Score predicts the rows of df with m and scores the predictions against
// df's target column (m.Spec.Target); see ScoreValues. It returns one row
// with the columns "rows", "rmse", "mae" and "r2". df without the target
// column is a *ColumnError; missing feature values follow Predict (an
// error unless the model was fitted with DropNA).
func Score(m *Model, df dataframe.DataFrame) (dataframe.DataFrame, error) {
	s, err := m.Scores(df)
	if err != nil {
		return dataframe.DataFrame{}, err
	}
	return s.Frame(), nil
}

// Scores is Score as a struct.
func (m *Model) Scores(df dataframe.DataFrame) (Scores, error) {
	if m == nil || m.Predictor == nil {
		return Scores{}, emptyf("score with an empty model")
	}
	if err := FindColumn(df, m.Spec.Target, "target"); err != nil {
		return Scores{}, err
	}
	p, err := m.PredictValues(df)
	if err != nil {
		return Scores{}, err
	}
	y, err := Column(df, m.Spec.Target)
	if err != nil {
		return Scores{}, err
	}
	return ScoreValues(p, y)
}

// Frame returns the scores as a one-row frame.
func (s Scores) Frame() dataframe.DataFrame {
	return dataframe.New(series.New([]int{s.Rows}, series.Int, ScoreRowsColumn),
		seriesOf(ScoreRMSEColumn, []float64{s.RMSE}), seriesOf(ScoreMAEColumn, []float64{s.MAE}),
		seriesOf(ScoreR2Column, []float64{s.R2}))
}

// String is the scores in one line: "RMSE 0.1 MAE 0.08 R^2 0.93 on 200 rows".
func (s Scores) String() string {
	return "RMSE " + fmtG(s.RMSE) + "  MAE " + fmtG(s.MAE) + "  R^2 " + fmtG(s.R2) + " on " + strconv.Itoa(s.Rows) + " rows"
}

func fmtG(v float64) string { return strings.TrimSpace(strconv.FormatFloat(v, 'g', 4, 64)) }

// PredictOptions configures PredictWith. The zero value predicts as
// Predict does: a missing value in a feature column is a *MissingError
// unless the model was fitted with Spec.DropNA.
type PredictOptions struct {
	// SkipMissing predicts the rows without missing feature values and
	// leaves NaN in the prediction of the others, which PredictWith lists.
	SkipMissing bool
}

// PredictWith returns df with a "prediction" column, as Predict, and the
// 0-based rows not predicted for a missing feature value (NaN in their
// prediction; only with opt.SkipMissing or a model fitted with DropNA).
func PredictWith(m *Model, df dataframe.DataFrame, opt PredictOptions) (dataframe.DataFrame, []int, error) {
	p, err := m.predictValues(df, opt.SkipMissing)
	if err != nil {
		return dataframe.DataFrame{}, nil, err
	}
	var skipped []int
	for i, v := range p {
		if math.IsNaN(v) {
			skipped = append(skipped, i)
		}
	}
	out := df.Mutate(seriesOf(PredictionColumn, p))
	if out.Err != nil {
		return dataframe.DataFrame{}, nil, out.Err
	}
	return out, skipped, nil
}
