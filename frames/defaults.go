package frames

import (
	"errors"
	"strings"

	"github.com/credlab/credlab/credlab"
)

// ExactScoreRows is the largest pool Select scores with the exact kernel
// matrix by default (SelectSpec.FeatureMap ""): O(N^2) memory and O(N^3)
// time. Beyond it, BLESS approximates the same leverage scores in
// O(N M (d + M)) time without the N x N matrix (docs/budget.md: a
// 1,000,000-row pool in 7 s).
const ExactScoreRows = 5000

// scoreMap resolves the feature map of CRED's scores: "exact" is the
// kernel matrix, "" is exact for Select's pools of at most ExactScoreRows
// rows and BLESS beyond (Budget keeps the exact kernel).
func scoreMap(fm, what string, p *prepared) string {
	switch {
	case strings.EqualFold(fm, "exact"):
		return ""
	case fm == "" && what == "SelectSpec" && len(p.rows) > ExactScoreRows:
		return "bless"
	}
	return fm
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
