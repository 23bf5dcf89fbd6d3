package signature

import "testing"

// TestDefaultPositive: a class named like a control is the reference whichever order
// the file met the classes in; else the alphabetically first is (R's factor levels).
// Expected values worked by hand.
func TestDefaultPositive(t *testing.T) {
	for _, c := range []struct {
		classes []string
		want    string
	}{
		{[]string{"Tumor", "Normal"}, "Tumor"}, {[]string{"Normal", "Tumor"}, "Tumor"},
		{[]string{"healthy_donor", "sepsis"}, "sepsis"}, {[]string{"ER+", "ER-"}, "ER-"},
		{[]string{"AML", "ALL"}, "AML"}, {[]string{"ALL", "AML"}, "AML"},
		{[]string{"wild-type", "knockout"}, "knockout"}, {[]string{"KO", "WT"}, "KO"},
		{[]string{"benign", "malignant"}, "malignant"}, {[]string{"Control", "Case"}, "Case"},
		{[]string{"normal tissue", "adjacent normal"}, "normal tissue"}, // both: alphabetical
		{[]string{"abnormal", "typical"}, "typical"},                    // "abnormal" is no control
		{[]string{"b", "B"}, "b"},
	} {
		p, why := DefaultPositive(c.classes)
		if p < 0 || c.classes[p] != c.want || why == "" {
			t.Errorf("%v: positive %d (%s), want %s", c.classes, p, why, c.want)
		}
		rev := []string{c.classes[1], c.classes[0]}
		if q, _ := DefaultPositive(rev); rev[q] != c.classes[p] {
			t.Errorf("%v reversed: positive %s", c.classes, rev[q])
		}
	}
	if p, _ := DefaultPositive([]string{"a", "b", "c"}); p != -1 {
		t.Errorf("three classes: %d", p)
	}
}
