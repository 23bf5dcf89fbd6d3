package widgets

import (
	"fmt"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
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
type ParamForm struct {
	Content fyne.CanvasObject
	params  []Param
	entries []*widget.Entry
}

// NewParamForm builds entries filled with the defaults.
func NewParamForm(params []Param) *ParamForm {
	f := &ParamForm{params: params}
	form := widget.NewForm()
	for _, p := range params {
		e := widget.NewEntry()
		e.SetText(strconv.FormatFloat(p.Default, 'g', -1, 64))
		p := p
		e.Validator = func(s string) error { _, err := p.parse(s); return err }
		f.entries = append(f.entries, e)
		item := widget.NewFormItem(p.Label, e)
		item.HintText = p.Help
		form.AppendItem(item)
	}
	f.Content = form
	if len(params) == 0 {
		f.Content = container.NewVBox()
	}
	return f
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
		if v, ok := values[p.Key]; ok {
			f.entries[i].SetText(strconv.FormatFloat(v, 'g', -1, 64))
		}
	}
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
