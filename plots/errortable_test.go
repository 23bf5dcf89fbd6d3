package plots

import (
	"strings"
	"testing"

	"steadfast/compute/experiment"
	"steadfast/compute/signature"
)

// A run of one method has no top group to test: its error table gives each k's error
// and S_S alone, its title and the advice say so and name no McNemar's test, and the
// advice is the k of least error (worked by hand: errors 25% at k = 10, 30% at k = 20).
func TestErrorTableOfOneMethod(t *testing.T) {
	res := &experiment.Result{Data: experiment.DataInfo{Name: "hand"}, Methods: []experiment.MethodResult{
		{Label: "A", Accuracy: map[string][]experiment.AccuracyPoint{"svm": {{K: 10, Mean: 0.75}, {K: 20, Mean: 0.7}}},
			Stability: []experiment.StabilityPoint{{K: 10, SS: 0.5}, {K: 20, SS: 0.6}}},
	}}
	f := ErrorTable(res, "svm")
	want := [][]string{{"k", "A error %", "A S_S"}, {"10", "25.00", "0.5000"}, {"20", "30.00", "0.6000"}}
	for i := range want {
		if i >= len(f.Table) || strings.Join(f.Table[i], "|") != strings.Join(want[i], "|") {
			t.Fatalf("table %v, want %v", f.Table, want)
		}
	}
	if strings.Contains(f.Title, "McNemar") || !strings.Contains(f.Title, "one method") {
		t.Errorf("title %q", f.Title)
	}
	why := signature.AdviceReason(res, "svm")
	if !strings.HasPrefix(why, "A at k = 10 with linear SVM: of the ks measured, k = 10 has the least error (error 25.0%)") || strings.Contains(why, "McNemar") {
		t.Errorf("advice %q", why)
	}
}
