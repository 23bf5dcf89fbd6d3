package widgets

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"
)

// Param describes one numeric field of a ParamForm.
type Param struct {
	Key, Label, Help string
	Default, Min     float64
	Max              float64
	Integer          bool
}

// ParamForm is a form of numeric entries with their help text; Values checks them.
// A whole-number parameter from 0 to 1 is a check box.
type ParamForm struct {
	Content fyne.CanvasObject
	params  []Param
	entries []*widget.Entry // nil for a check box
	checks  []*widget.Check // nil for an entry
}

func (p Param) isSwitch() bool { return p.Integer && p.Min == 0 && p.Max == 1 }

// NewParamForm builds entries filled with the defaults.
func NewParamForm(params []Param) *ParamForm {
	f := &ParamForm{params: params}
	form := widget.NewForm()
	for _, p := range params {
		if p.isSwitch() {
			c := widget.NewCheck("", nil)
			c.Checked = p.Default == 1
			f.entries, f.checks = append(f.entries, nil), append(f.checks, c)
			form.AppendItem(widget.NewFormItem(p.Label, Hinted(c, p.Help)))
			continue
		}
		e := widget.NewEntry()
		e.SetText(strconv.FormatFloat(p.Default, 'g', -1, 64))
		p := p
		e.Validator = func(s string) error { _, err := p.parse(s); return err }
		f.entries, f.checks = append(f.entries, e), append(f.checks, nil)
		form.AppendItem(widget.NewFormItem(p.Label, Hinted(e, p.Help)))
	}
	f.Content = form
	if len(params) == 0 {
		f.Content = container.NewVBox()
	}
	return f
}

// Hinted puts a field above its help, in small text that wraps, so long help never
// widens the window.
func Hinted(field fyne.CanvasObject, help string) fyne.CanvasObject {
	if help == "" {
		return field
	}
	hint := widget.NewLabel(help)
	hint.Wrapping = fyne.TextWrapWord
	hint.SizeName = theme.SizeNameCaptionText
	return container.NewVBox(field, hint)
}

func (p Param) parse(s string) (float64, error) {
	v, err := strconv.ParseFloat(strings.TrimSpace(s), 64)
	if err != nil {
		return 0, fmt.Errorf("%s: %q is not a number", p.Label, s)
	}
	if v < p.Min || v > p.Max {
		return 0, fmt.Errorf("%s must be between %g and %g", p.Label, p.Min, p.Max)
	}
	if p.Integer && v != float64(int64(v)) {
		return 0, fmt.Errorf("%s must be a whole number", p.Label)
	}
	return v, nil
}

// Values returns the entered values by key, or the first entry's error.
func (f *ParamForm) Values() (map[string]float64, error) {
	out := map[string]float64{}
	for i, p := range f.params {
		if c := f.checks[i]; c != nil {
			out[p.Key] = 0
			if c.Checked {
				out[p.Key] = 1
			}
			continue
		}
		v, err := p.parse(f.entries[i].Text)
		if err != nil {
			return nil, err
		}
		out[p.Key] = v
	}
	return out, nil
}

// Set fills the entries from values (missing keys keep their text).
func (f *ParamForm) Set(values map[string]float64) {
	for i, p := range f.params {
		v, ok := values[p.Key]
		switch {
		case !ok:
		case f.checks[i] != nil:
			f.checks[i].SetChecked(v == 1)
		default:
			f.entries[i].SetText(strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
}

// Check returns the check box of a 0/1 key, for tests.
func (f *ParamForm) Check(key string) *widget.Check {
	for i, p := range f.params {
		if p.Key == key {
			return f.checks[i]
		}
	}
	return nil
}

// Entry returns the entry of a key, for tests.
func (f *ParamForm) Entry(key string) *widget.Entry {
	for i, p := range f.params {
		if p.Key == key {
			return f.entries[i]
		}
	}
	return nil
}
