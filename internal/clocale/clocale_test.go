package clocale

import (
	"os"
	"testing"
)

// The locale names glibc and musl accept for the C locale (locale(7)), and ones that
// are not it.
func TestIsC(t *testing.T) {
	for _, c := range []struct {
		locale string
		want   bool
	}{
		{"C", true}, {"POSIX", true}, {"C.UTF-8", true}, {"C.utf8", true}, {"POSIX.UTF-8", true}, {"C@euro", true},
		{"en_US.UTF-8", false}, {"de_DE", false}, {"Ca_ES", false}, {"", false}, {"CS", false},
	} {
		if got := isC(c.locale); got != c.want {
			t.Errorf("isC(%q) = %v, want %v", c.locale, got, c.want)
		}
	}
}

// LC_ALL decides over LANG (locale(7)); Restore gives back the value it had.
func TestShortenAndRestore(t *testing.T) {
	t.Setenv("LC_ALL", "C.UTF-8")
	t.Setenv("LANG", "de_DE.UTF-8")
	shorten()
	if got := os.Getenv("LC_ALL"); got != "C" {
		t.Errorf("LC_ALL = %q while Fyne initialises, want C", got)
	}
	if got := os.Getenv("LANG"); got != "de_DE.UTF-8" {
		t.Errorf("LANG = %q, want it untouched", got)
	}
	Restore()
	if got := os.Getenv("LC_ALL"); got != "C.UTF-8" {
		t.Errorf("LC_ALL = %q after Restore, want C.UTF-8", got)
	}
}

// A locale that is not C is left alone, even when a later variable names C.
func TestShortenLeavesOtherLocales(t *testing.T) {
	t.Setenv("LC_ALL", "")
	t.Setenv("LC_MESSAGES", "fr_FR.UTF-8")
	t.Setenv("LANG", "C.UTF-8")
	shorten()
	if os.Getenv("LC_MESSAGES") != "fr_FR.UTF-8" || os.Getenv("LANG") != "C.UTF-8" {
		t.Errorf("LC_MESSAGES = %q, LANG = %q: changed", os.Getenv("LC_MESSAGES"), os.Getenv("LANG"))
	}
	Restore()
}
