package survival

import "testing"

// The median follow-up by reverse Kaplan-Meier equals R's (survival 3.5-3):
// summary(survfit(Surv(time, 1 - event) ~ 1))$table["median"] is 7.62 years for DLBCL
// CHOP and 610 days for AML (PROVENANCE.md's figures).
func TestMedianFollowUp(t *testing.T) {
	for _, tc := range []struct {
		name string
		want float64
	}{{"dlbcl_chop_survival.csv", 7.62}, {"aml_survival.csv", 610}} {
		s := readSet(t, tc.name)
		if got := MedianFollowUp(s.o); got != tc.want {
			t.Errorf("%s: median follow-up %v, R %v", tc.name, got, tc.want)
		}
	}
}
