package method

import (
	"strings"
	"testing"
)

func TestCatalogParams(t *testing.T) {
	if _, err := New(Spec{Name: "svmrfe", Params: map[string]float64{"C": -1}}); err == nil {
		t.Error("C = -1 accepted")
	}
	if _, err := New(Spec{Name: "svmrfe", Params: map[string]float64{"bogus": 1}}); err == nil {
		t.Error("unknown parameter accepted")
	}
	if _, err := New(Spec{Name: "nope"}); err == nil || !strings.Contains(err.Error(), "fstat") {
		t.Errorf("unknown method: %v", err)
	}
	for _, in := range Catalog {
		if _, err := New(Spec{Name: in.Name}); err != nil {
			t.Errorf("%s with defaults: %v", in.Name, err)
		}
	}
}
