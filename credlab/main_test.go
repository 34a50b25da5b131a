package credlab

import (
	"os"
	"testing"
)

// TestMain runs the tests with no default time budget: a search's result
// must not depend on how fast the machine runs the tests (TestTuneTimeBudget
// sets its budget explicitly).
func TestMain(m *testing.M) {
	zeroBudget = -1
	os.Exit(m.Run())
}
