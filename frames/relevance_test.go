package frames

import (
	"bytes"
	"errors"
	"fmt"
	"math"
	"math/rand/v2"
	"strings"
	"testing"

	"github.com/credlab/credlab/credlab"
	"github.com/go-gota/gota/dataframe"
	"gonum.org/v1/gonum/mat"
)

// TestFitRelevance: the default fit learns that "a" and "b" carry the
// signal among six columns, says so in the summary and warnings, and its
// model file keeps the scales: the loaded model predicts the same bits.
func TestFitRelevance(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 3))
	n := 260
	x := mat.NewDense(n, 7, nil)
	for i := 0; i < n; i++ {
		r := x.RawRowView(i)
		for j := 0; j < 6; j++ {
			r[j] = rng.NormFloat64()
		}
		r[6] = math.Sin(1.5*r[0]) + math.Cos(r[1]) + 0.05*rng.NormFloat64()
	}
	df, err := FromMatrix(x, "a", "b", "c", "d", "e", "f", "y")
	if err != nil {
		t.Fatal(err)
	}
	m, err := Fit(df, Spec{Target: "y", TimeBudget: -1})
	if err != nil {
		t.Fatal(err)
	}
	rel := m.Relevance()
	if len(rel) != 6 {
		t.Fatalf("relevance %v: want one entry per column", rel)
	}
	if top := []string{rel[0].Column, rel[1].Column}; !(top[0] == "a" && top[1] == "b" || top[0] == "b" && top[1] == "a") {
		t.Errorf("most relevant columns %v, want a and b; relevance %v", top, rel)
	}
	if len(m.Choice.FoldRMSE) != 5 || !strings.Contains(m.Summary(), "cross-validation RMSE per fold") {
		t.Errorf("fold RMSEs %v, summary:\n%s", m.Choice.FoldRMSE, m.Summary())
	}
	if e := m.Choice.PoolRMSE; e == nil || !(e.Lo < e.RMSE && e.RMSE < e.Hi) || e.Rows != m.Rows || !strings.Contains(m.Summary(), "estimated RMSE on the population the rows represent") {
		t.Errorf("pool RMSE estimate %+v, summary:\n%s", e, m.Summary())
	}
	// Columns below 1% share one warning.
	weak := 0
	for _, r := range rel {
		if r.Relevance < 0.01 {
			weak++
		}
	}
	var lines []string
	for _, w := range m.Warnings {
		if strings.Contains(w, "irrelevant") {
			lines = append(lines, w)
		}
	}
	if weak < 2 || len(lines) != 1 || !strings.Contains(lines[0], fmt.Sprintf("%d columns look irrelevant", weak)) {
		t.Errorf("%d columns below 1%% of the most relevant; warnings %q", weak, lines)
	}
	if s := m.Summary(); !strings.Contains(s, "relevance (kernel scale per column") {
		t.Errorf("summary without the relevance:\n%s", s)
	}
	buf := savedAlike(t, m, df)
	if !strings.Contains(buf.String(), `"version": "`+FormatVersion+`"`) || !strings.Contains(buf.String(), `"scales"`) || !strings.Contains(buf.String(), `"bounds"`) {
		t.Errorf("model file without version %s, scales or bounds", FormatVersion)
	}
	// A file whose scales do not match its design columns is corrupt.
	k := strings.Index(buf.String(), `"kernel": {`)
	bad := buf.String()[:k] + strings.Replace(buf.String()[k:], `"scales": [`, `"scales": [1,`, 1)
	if _, err := LoadModel(strings.NewReader(bad)); err == nil || !strings.Contains(err.Error(), "kernel scales") {
		t.Errorf("7 scales for 6 columns: error %v", err)
	}
	// Relevance and TimeBudget belong to the automatic method.
	var pe *credlab.ParamError
	if _, err := Fit(df, Spec{Target: "y", Method: "krls", Relevance: "off"}); !errors.As(err, &pe) {
		t.Errorf("method krls with Relevance: error %v, want a *credlab.ParamError", err)
	}
	if _, err := Fit(df, Spec{Target: "y", Relevance: "some"}); !errors.As(err, &pe) || pe.Name != "Spec.Relevance" {
		t.Errorf("Relevance \"some\": error %v, want a *credlab.ParamError naming Spec.Relevance", err)
	}
}

// savedAlike saves m, loads the file back, checks that the loaded model
// predicts df's rows to the same bits, and returns the file.
func savedAlike(t *testing.T, m *Model, df dataframe.DataFrame) *bytes.Buffer {
	t.Helper()
	var buf bytes.Buffer
	if err := m.Save(&buf); err != nil {
		t.Fatal(err)
	}
	back, err := LoadModel(bytes.NewReader(buf.Bytes()))
	if err != nil {
		t.Fatal(err)
	}
	p1, err := Predict(m, df)
	if err != nil {
		t.Fatal(err)
	}
	p2, err := Predict(back, df)
	if err != nil {
		t.Fatal(err)
	}
	a, b := col(t, p1, "prediction"), col(t, p2, "prediction")
	for i := range a {
		if a[i] != b[i] {
			t.Fatalf("row %d: %v before saving, %v after loading", i, a[i], b[i])
		}
	}
	return &buf
}
