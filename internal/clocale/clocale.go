// Package clocale keeps Fyne from logging "Error parsing user locale C" when the
// environment names the C locale with an encoding (LANG=C.UTF-8, Debian's and most
// containers' default). Fyne reads the locale in its package initialisation and cannot
// parse "C"; only the bare "C" or "POSIX" means "no locale" to it.
//
// Go initialises packages in import-path order once their imports are ready, so this
// package sits in a module of its own whose path, "clocale", sorts before "fyne.io":
// its init runs before Fyne's. It shortens the variable that decides the locale
// (the first set of LC_ALL, LC_MESSAGES, LANG) to "C"; Restore puts the user's value
// back, so the programs Steadfast starts (sbatch, the shell) see the environment unchanged.
package clocale

import (
	"os"
	"strings"
)

var (
	name  string // the variable shortened, "" when none was
	value string // its value before
)

func init() { shorten() }

// shorten sets the variable deciding the locale to "C" when it names the C locale
// with an encoding, remembering its value for Restore.
func shorten() {
	for _, v := range [...]string{"LC_ALL", "LC_MESSAGES", "LANG"} {
		val := os.Getenv(v)
		if val == "" {
			continue
		}
		if isC(val) && val != "C" && val != "POSIX" {
			name, value = v, val
			os.Setenv(v, "C")
		}
		return
	}
}

// isC reports whether locale names the C or POSIX locale, with or without an
// encoding or modifier: C, C.UTF-8, POSIX.utf8, C@euro.
func isC(locale string) bool {
	lang, _, _ := strings.Cut(locale, ".")
	lang, _, _ = strings.Cut(lang, "@")
	return lang == "C" || lang == "POSIX"
}

// Restore gives the variable shortened by init its value back; call it first in main.
func Restore() {
	if name != "" {
		os.Setenv(name, value)
		name = ""
	}
}
