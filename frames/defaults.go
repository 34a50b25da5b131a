package frames

import (
	"errors"
	"fmt"
	"math"
	"strings"

	"github.com/credlab/credlab/credlab"
)

// ExactScoreRows is the largest pool Select and Budget score with the
// exact kernel matrix by default (FeatureMap ""): O(N^2) memory and O(N^3)
// time. Beyond it they score CRED's leverage scores on LargePoolM(N)
// Nyström features of the same kernel (uniform centers), O(N M^2) time and
// no N x N matrix: on cpusmall (8,192 rows), 2000 features put CRED's
// sampling distribution at total variation 0.085 from the exact one (0.40
// for BLESS with its default 400-row dictionary, whose scores are upper
// bounds once the effective dimension exceeds it; docs/budget.md).
const ExactScoreRows = 5000

// LargePoolM returns the number of Nyström features of the default scores
// of a pool of n > ExactScoreRows rows: sqrt(2e11 / n), about 2e11 flops
// for the features' Gram matrix, within [400, 2000].
func LargePoolM(n int) int {
	return max(400, min(2000, int(math.Sqrt(2e11/float64(max(n, 1))))))
}

// scoreMap resolves the feature map and its size of CRED's scores on a
// pool of n rows: "exact" is the kernel matrix, "" is exact for pools of at most
// ExactScoreRows rows and LargePoolM Nyström features beyond (m, when
// positive, their number), with a note saying so.
func scoreMap(fm string, m, n int) (string, int, string) {
	switch {
	case strings.EqualFold(fm, "exact"):
		return "", m, ""
	case fm == "" && n > ExactScoreRows:
		if m <= 0 {
			m = LargePoolM(n)
		}
		m = min(m, n)
		return "nystrom", m, fmt.Sprintf("%d pool rows, more than %d: CRED's scores are leverage scores on %d Nyström features (uniform centers), and the effective dimension is at most %d (an underestimate as it nears that); FeatureMap \"exact\" (-features exact) scores exactly, O(N^3)",
			n, ExactScoreRows, m, m)
	}
	return fm, m, ""
}

// specScale resolves the Scale of a SelectSpec or BudgetSpec (what) as
// Spec.Scale: "" is standardize.
func specScale(s, what string) (string, error) {
	scale, err := resolveScale(s)
	var pe *credlab.ParamError
	if errors.As(err, &pe) {
		pe.Name = what + ".Scale"
	}
	return scale, err
}
