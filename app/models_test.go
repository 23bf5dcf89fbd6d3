package app

import (
	"strings"
	"testing"

	"fyne.io/fyne/v2/test"

	"steadfast/compute/experiment"
)

// The Protocol tab offers logistic regression and the random forest beside the other
// classifiers; ticking one shows its parameters, whose values (those differing from
// the defaults) go into the configuration and come back from a saved one; the Methods
// tab offers the elastic-net path and both forest importances; the guide explains the
// new terms.
func TestProtocolTabOffersLogitAndForest(t *testing.T) {
	u, _ := newTestUI(t)
	pp := u.protocol
	for _, cl := range []string{"logit", "rf"} {
		ch, card := pp.classifs[cl], pp.ccards[cl]
		if ch == nil || card == nil || pp.cforms[cl] == nil {
			t.Fatalf("no %s on the Protocol tab", cl)
		}
		if onUI(func() bool { return card.Visible() }) {
			t.Errorf("%s's parameters show before it is ticked", cl)
		}
	}
	var cfg experiment.Config
	serialized(func() {
		test.Tap(pp.classifs["logit"])
		test.Tap(pp.classifs["rf"])
		if !pp.ccards["logit"].Visible() || !pp.ccards["rf"].Visible() {
			t.Error("the parameters do not show once ticked")
		}
		pp.cforms["logit"].Entry("alpha").SetText("0.5")
		pp.cforms["rf"].Entry("trees").SetText("1000")
		if err := pp.fill(&cfg); err != nil {
			t.Fatal(err)
		}
	})
	if !strings.Contains(strings.Join(cfg.Classifiers, " "), "logit") || !strings.Contains(strings.Join(cfg.Classifiers, " "), "rf") {
		t.Fatalf("classifiers %v", cfg.Classifiers)
	}
	if cfg.ClassifierParams["logit"]["alpha"] != 0.5 || cfg.ClassifierParams["rf"]["trees"] != 1000 || len(cfg.ClassifierParams["logit"]) != 1 {
		t.Fatalf("parameters %v", cfg.ClassifierParams)
	}
	// a saved configuration shows its parameters; one without them the defaults
	serialized(func() {
		pp.set(experiment.Config{Protocol: experiment.CV10x10, Classifiers: []string{"svm"}})
	})
	if got := onUI(func() string { return pp.cforms["logit"].Entry("alpha").Text }); got != "0" || onUI(func() bool { return pp.classifs["logit"].Checked }) {
		t.Errorf("after a configuration without logistic regression: alpha %q", got)
	}
	serialized(func() { pp.set(cfg) })
	if got := onUI(func() string { return pp.cforms["rf"].Entry("trees").Text }); got != "1000" {
		t.Errorf("trees %q after setting the configuration", got)
	}
	for _, m := range []string{"enetpath", "rfperm", "rfimpurity"} {
		if u.methods.checks[m] == nil {
			t.Errorf("no method %s on the Methods tab", m)
		}
	}
	guide := guideText("")
	for _, term := range []string{"logistic regression", "random forest", "odds ratio", "out-of-bag error", "permutation importance", "impurity importance"} {
		if !strings.Contains(guide, term+": ") {
			t.Errorf("the guide does not explain %q", term)
		}
	}
}
