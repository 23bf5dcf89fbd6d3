package dataset

import (
	"fmt"
	"slices"
	"strings"
)

// eventWords are the words an event column may hold in place of 1 and 0, each read as
// the event (true) or censored (false): TCGA's vital_status Dead and Alive, R's
// logical TRUE and FALSE, and their like. Nothing else is guessed.
var eventWords = map[string]bool{
	"1": true, "1.0": true, "true": true, "dead": true, "deceased": true, "died": true,
	"0": false, "0.0": false, "false": false, "alive": false, "living": false, "censored": false,
}

// eventCoding collects how an event column codes the event and censoring, as written.
type eventCoding struct {
	event, censored []string // the distinct values read as each, in order of first appearance
}

// read is the event cell as written: the event (true) or censored (false), or the
// reason it is neither, naming name, the column.
func (c *eventCoding) read(cell, name string) (bool, string) {
	w := strings.TrimSpace(cell)
	e, ok := eventWords[strings.ToLower(w)]
	switch {
	case ok && e && !slices.Contains(c.event, w):
		c.event = append(c.event, w)
	case ok && !e && !slices.Contains(c.censored, w):
		c.censored = append(c.censored, w)
	case ok:
	case w == "" || isMissingCell(w):
		return false, fmt.Sprintf("the %s is missing (%q); give 1 if the event happened, 0 if the follow-up ended without it (censored), or remove the sample from the file", name, w)
	case w == "2":
		return false, fmt.Sprintf("the %s %q is not 1 (the event happened) or 0 (censored); R's survival coding (2 the event, 1 censored) is written here as 1 and 0: recode 2 as 1 and 1 as 0", name, w)
	default:
		return false, fmt.Sprintf("the %s %q is not 1 (the event happened) or 0 (censored: alive or event-free at the last follow-up); write 1 where the event happened (dead, relapsed) and 0 where the follow-up ended without it (Steadfast also reads TRUE/FALSE, dead/alive, deceased/living and died/censored)", name, w)
	}
	return e, ""
}

// String says how the events were read: "1 event, 0 censored" for 1 and 0, else the
// values as written, `TRUE read as the event, FALSE as censored`.
func (c *eventCoding) String() string {
	plain := func(vs []string, v string) bool {
		return !slices.ContainsFunc(vs, func(s string) bool { return s != v && s != v+".0" })
	}
	if plain(c.event, "1") && plain(c.censored, "0") {
		return "1 event, 0 censored"
	}
	list := func(vs []string) string {
		if len(vs) == 0 {
			return "none"
		}
		return strings.Join(vs, " and ")
	}
	return fmt.Sprintf("%s read as the event, %s as censored", list(c.event), list(c.censored))
}
