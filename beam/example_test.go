package credbeam_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"

	"github.com/apache/beam/sdks/v2/go/pkg/beam"
	"github.com/apache/beam/sdks/v2/go/pkg/beam/runners/prism"
	credbeam "github.com/credlab/credlab/beam"
)

// ExampleCREDSample draws 5 CRED labels from a pool of two CSV shards on
// the in-process Prism runner.
func ExampleCREDSample() {
	dir, _ := os.MkdirTemp("", "credbeam")
	defer os.RemoveAll(dir)
	for k, rows := range []string{"1,2\n2,1\n3,3\n", "0,1\n5,4\n"} {
		os.WriteFile(filepath.Join(dir, fmt.Sprintf("part-%d.csv", k)), []byte("a,b\n"+rows), 0o644)
	}
	ctx := context.Background()
	files, err := credbeam.ExpandShards(ctx, filepath.Join(dir, "*.csv"))
	if err != nil {
		fmt.Println(err)
		return
	}
	cols, _ := credbeam.ReadHeader(ctx, files[0])
	p, s := beam.NewPipelineWithRoot()
	out, err := credbeam.CREDSample(s, beam.CreateList(s, files), credbeam.SelectSpec{
		Spec: credbeam.Spec{Columns: cols}, D: 20, Sigma: 2, Budget: 5, Seed: 1})
	if err != nil {
		fmt.Println(err)
		return
	}
	credbeam.WriteSelected(s, out.Selected, filepath.Join(dir, "selected.csv"), cols)
	if _, err := prism.Execute(ctx, p); err != nil {
		fmt.Println(err)
		return
	}
	b, _ := os.ReadFile(filepath.Join(dir, "selected.csv"))
	fmt.Println(len(b) > 0)
	// Output: true
}
