package cli

import (
	"bytes"
	"regexp"
	"strings"
	"testing"
)

// TestUsageLinesNameEveryOption: every option a command takes is named on its usage
// line in steadfast help, or under DATA OPTIONS for a command whose line says [DATA
// OPTIONS]; predict's lacked --harmonize and enrich's --camera. Left out on purpose:
// predict's --standardize, the old spelling of --harmonize standardize.
func TestUsageLinesNameEveryOption(t *testing.T) {
	usage := Usage()
	_, dataOpts, _ := strings.Cut(usage, "DATA OPTIONS:")
	flagLine := regexp.MustCompile(`(?m)^  -([a-zA-Z0-9-]+)`)
	for _, c := range commands {
		var out, errs bytes.Buffer
		if code := Main([]string{"help", c.name}, &out, &errs); code != 0 {
			t.Fatalf("help %s: exit %d: %s", c.name, code, errs.String())
		}
		for _, m := range flagLine.FindAllStringSubmatch(out.String(), -1) {
			f := m[1]
			named := regexp.MustCompile(`(^|[\s\[|])--?` + regexp.QuoteMeta(f) + `\b`)
			if named.MatchString(c.args) || c.name == "predict" && f == "standardize" {
				continue
			}
			if strings.Contains(c.args, "[DATA OPTIONS]") && named.MatchString(dataOpts) {
				continue
			}
			t.Errorf("steadfast %s takes --%s, which its usage line does not name: %s", c.name, f, c.args)
		}
	}
}
