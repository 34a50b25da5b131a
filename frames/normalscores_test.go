package frames

import (
	"errors"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"gonum.org/v1/gonum/mat"
)

// TestFitNormalScores: on lognormal columns and a target smooth in their
// logs, the default fit maps the skewed columns, names them in the
// summary, and its model file keeps the map: the loaded model predicts the
// same bits, and a file whose map is not increasing is corrupt.
func TestFitNormalScores(t *testing.T) {
	rng := rand.New(rand.NewPCG(4, 4))
	n := 400
	x := mat.NewDense(n, 4, nil)
	for i := range n {
		r := x.RawRowView(i)
		r[0], r[1], r[2] = math.Exp(rng.NormFloat64()), math.Exp(rng.NormFloat64()), rng.NormFloat64()
		r[3] = math.Sin(2*math.Log(r[0])) + math.Log(r[1]) + 0.3*r[2] + 0.1*rng.NormFloat64()
	}
	df, err := FromMatrix(x, "a", "b", "c", "y")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Fit(df, Spec{Target: "y", TimeBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	if got := m.Choice.NormalScores; len(got) != 2 || got[0] != "a" || got[1] != "b" {
		t.Fatalf("mapped columns %q, want a and b; stages %q", got, m.Choice.Stages)
	}
	if s := m.Summary(); !strings.Contains(s, `skewed columns mapped to normal scores`) || !strings.Contains(s, `"a", "b"`) {
		t.Errorf("summary without the mapped columns:\n%s", s)
	}
	buf := savedAlike(t, m, df)
	if !strings.Contains(buf.String(), `"version": "`+FormatVersion+`"`) || !strings.Contains(buf.String(), `"normal_scores": {`) {
		t.Fatal("model file without version " + FormatVersion + " or the map")
	}
	k := strings.Index(buf.String(), `"scores": [`)
	bad := buf.String()[:k] + strings.Replace(buf.String()[k:], `"scores": [`, `"scores": [[1e9],`, 1)
	if _, err := LoadModel(strings.NewReader(bad)); !errors.Is(err, ErrCorruptModel) || !strings.Contains(err.Error(), "normal scores") {
		t.Errorf("a map with a score list too many: error %v", err)
	}
	off, err := Fit(df, Spec{Target: "y", TimeBudget: -1, Transform: "off"})
	if err != nil {
		t.Fatal(err)
	}
	if off.Choice.NormalScores != nil || off.Predictor.Transform != nil || strings.Contains(off.Summary(), "normal scores") {
		t.Errorf("Transform off mapped %q", off.Choice.NormalScores)
	}
	if _, err := Fit(df, Spec{Target: "y", Transform: "log"}); err == nil || !strings.Contains(err.Error(), "Spec.Transform") {
		t.Errorf("Transform log: error %v", err)
	}
	if _, err := Fit(df, Spec{Target: "y", Method: "krls", Transform: "off"}); err == nil || !strings.Contains(err.Error(), "Transform") {
		t.Errorf("Transform with method krls: error %v", err)
	}
}
