package testtier_test

import (
	"testing"

	"github.com/nbdialog/ipynb/internal/testtier"
)

// The tier follows IPYNB_LONG, and -short keeps it off.
func TestTier(t *testing.T) {
	for _, tc := range []struct {
		env  string
		full bool
	}{{"", false}, {"0", false}, {"yes", false}, {"1", !testing.Short()}} {
		t.Setenv(testtier.Env, tc.env)
		if got := testtier.Full(); got != tc.full {
			t.Errorf("%s=%q: Full() = %v, want %v", testtier.Env, tc.env, got, tc.full)
		}
		var sampled int
		for i := range 64 {
			if testtier.Sample(i) {
				sampled++
			}
		}
		if want := map[bool]int{true: 64, false: 64 / testtier.Every}[tc.full]; sampled != want {
			t.Errorf("%s=%q: Sample took %d of 64, want %d", testtier.Env, tc.env, sampled, want)
		}
		ran := false
		t.Run("Long", func(t *testing.T) {
			testtier.Long(t)
			ran = true
		})
		if ran != tc.full {
			t.Errorf("%s=%q: a Long test ran = %v, want %v", testtier.Env, tc.env, ran, tc.full)
		}
	}
}
