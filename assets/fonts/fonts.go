// Package fonts embeds the fallback font Steadfast draws characters with that its
// figure font (Liberation Sans: Latin, Greek, Cyrillic) lacks, such as Chinese,
// Japanese and Korean class names: Droid Sans Fallback (Google, Apache License 2.0;
// see LICENSE-DroidSansFallback, from Debian's fonts-droid-fallback). It imports no
// Fyne, so the command line and the figures can use it.
package fonts

import _ "embed"

// DroidSansFallback is the TrueType file of Droid Sans Fallback Full.
//
//go:embed DroidSansFallbackFull.ttf
var DroidSansFallback []byte
