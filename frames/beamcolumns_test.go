package frames

import (
	"slices"
	"strings"
	"testing"
)

// The Beam module's file, line and draw columns are not features of a
// selection it wrote (row, prob and weight beside them); in another
// table a column named line is.
func TestBeamColumnsNotFeatures(t *testing.T) {
	for _, c := range []struct {
		in   string
		want []string
	}{
		{"file,line,row,draw,prob,weight,audit,x0,x1,y\nshard-0.csv,2,0,0,1,1,0,0.5,1,2\nshard-1.csv,9,7,1,1,1,40,0.7,2,3\n", []string{"x0", "x1"}},
		{"line,x0,y\n3,0.5,2\n4,0.7,3\n", []string{"line", "x0"}},
	} {
		df, err := ReadCSV(strings.NewReader(c.in), "t.csv")
		if err != nil {
			t.Fatal(err)
		}
		got, err := FeatureColumns(df, Spec{Target: "y"})
		if err != nil || !slices.Equal(got, c.want) {
			t.Errorf("%q: features %v, %v; want %v", strings.SplitN(c.in, "\n", 2)[0], got, err, c.want)
		}
	}
}
