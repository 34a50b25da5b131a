package frames

import (
	"strings"
	"testing"

	"github.com/credlab/credlab/credlab"
)

// The summary projects a falling learning curve and says so when it does
// not fall (B = 0).
func TestSummaryLearningCurve(t *testing.T) {
	for _, c := range []struct {
		b    float64
		want string
	}{
		{0, "the cross-validated RMSE did not fall from 40 to 54 rows (0.1 to 0.1), so there is no projection"},
		{0.25, "learning curve from the same rows: RMSE ~ sqrt(0.05^2 + (0.3 n^-0.25)^2) (a noise floor, the cross-validated error above it, through the estimate at the rows); with more labels drawn the same way, expect 0.09 at 90 rows (1.5x)"},
	} {
		m := &Model{Choice: &Choice{Curve: &credlab.LearningCurve{Labels: []int{40, 48, 54}, RMSE: []float64{0.1, 0.11, 0.1}, A: 0.3, B: c.b, Floor: 0.05,
			Project: []int{60, 90, 120}, Projected: []float64{0.1, 0.09, 0.08}}}}
		if s := m.Summary(); !strings.Contains(s, c.want) {
			t.Errorf("B = %g: the summary\n%s\ndoes not read %q", c.b, s, c.want)
		}
	}
}
