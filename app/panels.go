package app

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"fyne.io/fyne/v2"
	"fyne.io/fyne/v2/container"
	"fyne.io/fyne/v2/theme"
	"fyne.io/fyne/v2/widget"

	"steadfast/compute/experiment"
	"steadfast/compute/method"
	"steadfast/widgets"
)

// methodPanel is a check box and a parameter form per method of the catalogue.
type methodPanel struct {
	content fyne.CanvasObject
	checks  map[string]*widget.Check
	forms   map[string]*widgets.ParamForm
	cards   map[string]*widget.Card
	// survival is set while the methods shown are those of a survival outcome
	survival bool
}

func newMethodPanel() *methodPanel {
	mp := &methodPanel{checks: map[string]*widget.Check{}, forms: map[string]*widgets.ParamForm{}, cards: map[string]*widget.Card{}}
	intro := widget.NewLabel("Choose the methods to compare. Each ranks the features of every training set.")
	intro.Wrapping = fyne.TextWrapWord
	box := container.NewVBox(intro)
	def := map[string]bool{}
	for _, s := range experiment.DefaultConfig().Methods {
		def[s.Name] = true
	}
	for _, in := range method.Catalog {
		form := widgets.NewParamForm(toWidgetParams(in.Params))
		// the parameters show while the method is chosen
		check := widget.NewCheck(in.Label, func(on bool) {
			if on {
				form.Content.Show()
			} else {
				form.Content.Hide()
			}
		})
		check.SetChecked(def[in.Name])
		if !def[in.Name] {
			form.Content.Hide()
		}
		help := widget.NewLabel(in.Help)
		help.Wrapping = fyne.TextWrapWord
		mp.checks[in.Name], mp.forms[in.Name] = check, form
		mp.cards[in.Name] = widget.NewCard("", "", container.NewVBox(check, help, form.Content))
		box.Add(mp.cards[in.Name])
		if in.Survival {
			mp.cards[in.Name].Hide()
		}
	}
	mp.content = box
	return mp
}

// setOutcome shows the methods of a survival outcome (survival) or of classes, and
// when the kind changes, ticks that kind's defaults.
func (mp *methodPanel) setOutcome(survival bool) {
	if survival == mp.survival {
		return
	}
	mp.survival = survival
	def := experiment.DefaultConfig()
	if survival {
		def = experiment.DefaultSurvivalConfig()
	}
	mp.set(def.Methods)
	for _, in := range method.Catalog {
		if in.Survival == survival {
			mp.cards[in.Name].Show()
		} else {
			mp.cards[in.Name].Hide()
		}
	}
}

// specs returns the chosen methods with their parameters (of the outcome's kind).
func (mp *methodPanel) specs() ([]method.Spec, error) {
	var out []method.Spec
	for _, in := range method.Catalog {
		if !mp.checks[in.Name].Checked || in.Survival != mp.survival {
			continue
		}
		v, err := mp.forms[in.Name].Values()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", in.Label, err)
		}
		out = append(out, method.Spec{Name: in.Name, Params: v})
	}
	if len(out) == 0 {
		return nil, fmt.Errorf("choose at least one method on the Methods tab")
	}
	return out, nil
}

// set shows the methods of a saved configuration.
func (mp *methodPanel) set(specs []method.Spec) {
	for _, c := range mp.checks {
		c.SetChecked(false)
	}
	for _, s := range specs {
		if c, ok := mp.checks[s.Name]; ok {
			c.SetChecked(true)
			mp.forms[s.Name].Set(s.Params)
		}
	}
}

// protocolPanel chooses the resampling protocol, stability mode, k grid, seed and classifiers.
type protocolPanel struct {
	content  fyne.CanvasObject
	protocol *widget.Select
	help     *widget.Label
	mode     *widget.Select
	ks       *widget.Entry
	seed     *widget.Entry
	workers  *widget.Entry
	accMax   *widget.Entry
	classifs map[string]*widget.Check
	// cforms are the parameter forms of the classifiers that take some (logistic
	// regression, random forest), shown while the classifier is ticked
	cforms map[string]*widgets.ParamForm
	ccards map[string]*widget.Card // the cards holding them
	labels []string
	folds  *widget.Entry
	// foldsHint says what the folds need: samples of every class, or events
	foldsHint *widget.Label
	// classBox holds the classifiers' boxes; survival is set while those of a survival
	// outcome are shown (the Cox model alone)
	classBox *fyne.Container
	survival bool

	// the protocol's fit to the data, shown when the data are too small for it
	fit                *fyne.Container
	fitText            *widget.Label
	useFolds, useDRAGS *widget.Button
	// autoFolds is the folds the "Use N folds" fix set for the data open then ("" when
	// none, or the user typed them since): another file starts from the protocol's own
	autoFolds string
	// onChange is called when the protocol or its folds change (set by the window)
	onChange func()
}

// newProtocolPanel builds the panel; explain makes the "?" beside a term.
func newProtocolPanel(explain func(term string) *widget.Button) *protocolPanel {
	pp := &protocolPanel{classifs: map[string]*widget.Check{}, cforms: map[string]*widgets.ParamForm{}, ccards: map[string]*widget.Card{}}
	for _, p := range experiment.Protocols {
		pp.labels = append(pp.labels, p.Label)
	}
	pp.help = widget.NewLabel("")
	pp.help.Wrapping = fyne.TextWrapWord
	pp.protocol = widget.NewSelect(pp.labels, func(string) {
		in := experiment.Protocols[pp.protocol.SelectedIndex()]
		pp.folds.SetPlaceHolder(fmt.Sprintf("protocol's (%d)", in.Folds))
		pp.describe()
		pp.changed()
	})
	pp.folds = widget.NewEntry()
	pp.folds.OnChanged = func(string) { pp.describe(); pp.changed() }
	pp.buildFit()
	pp.mode = widget.NewSelect([]string{"protocol's default", string(experiment.Reference), string(experiment.Pairwise)}, nil)
	pp.mode.SetSelectedIndex(0)
	pp.ks = widget.NewEntry()
	pp.ks.SetPlaceHolder("protocol's grid, or e.g. 1-50 or 4,6,8,10,20")
	pp.seed = widget.NewEntry()
	pp.seed.SetText("1")
	pp.workers = widget.NewEntry()
	pp.workers.SetPlaceHolder("all cores")
	pp.accMax = widget.NewEntry()
	pp.accMax.SetText("50")
	// two columns, each as wide as its widest name: more in a row widen the left panel
	// past a laptop's share
	cols := [2]*fyne.Container{container.NewVBox(), container.NewVBox()}
	// below the checks, a "?" names Weka's defaults behind the plain "scaled 0-1"
	cbox := container.NewVBox(container.NewHBox(cols[0], cols[1]),
		container.NewHBox(widget.NewLabel("what \"scaled 0-1\" means"), explain("scaled 0-1")))
	defaults := experiment.DefaultConfig().Classifiers
	params := container.NewVBox()
	for i, c := range experiment.Classifiers {
		ch := widget.NewCheck(experiment.ClassifierLabel(c), nil)
		ch.Checked = slices.Contains(defaults, c)
		pp.classifs[c] = ch
		cols[i%2].Add(ch)
		if c == "cox" { // a survival outcome's, shown with one
			ch.Hide()
		}
		if ps := experiment.ClassifierParamList(c); ps != nil {
			form := widgets.NewParamForm(toWidgetParams(ps))
			pp.cforms[c] = form
			term := experiment.ClassifierLabel(c) // its glossary entry
			card := widget.NewCard("", term, container.NewVBox(withHelp(wrapped(experiment.ClassifierHelp(c)), explain(term)), form.Content))
			params.Add(card)
			pp.ccards[c] = card
			ch.OnChanged = func(on bool) {
				if on {
					card.Show()
				} else {
					card.Hide()
				}
			}
			if !ch.Checked {
				card.Hide()
			}
		}
	}
	pp.classBox = cbox
	pp.foldsHint = widget.NewLabel(foldsHint(false))
	pp.foldsHint.Wrapping = fyne.TextWrapWord
	pp.foldsHint.SizeName = theme.SizeNameCaptionText
	pp.protocol.SetSelectedIndex(0)
	form := widget.NewForm(
		&widget.FormItem{Text: "Protocol", Widget: pp.protocol},
		widget.NewFormItem("Folds", withHelp(container.NewVBox(pp.folds, pp.foldsHint), explain("folds"))),
		widget.NewFormItem("Stability", withHelp(widgets.Hinted(pp.mode, "reference: each resample vs all samples; pairwise: all pairs of resamples"), explain("stability mode"))),
		widget.NewFormItem("k grid", withHelp(widgets.Hinted(pp.ks, "sizes of the selections compared"), explain("k grid"))),
		widget.NewFormItem("Accuracy up to k", widgets.Hinted(pp.accMax, "accuracy (or C) is measured for k in the grid up to this")),
		&widget.FormItem{Text: "Classifiers", Widget: container.NewVBox(cbox, params)},
		widget.NewFormItem("Seed", widgets.Hinted(pp.seed, "same seed and settings, same result")),
		widget.NewFormItem("Workers", withHelp(widgets.Hinted(pp.workers, "parallel jobs (0: one per core); never change the result"), explain("workers"))),
	)
	pp.content = container.NewVBox(pp.fit, form, pp.help)
	return pp
}

// withHelp puts a "?" button at the right of field.
func withHelp(field fyne.CanvasObject, help *widget.Button) fyne.CanvasObject {
	return container.NewBorder(nil, nil, nil, container.NewVBox(help), field)
}

// describe shows what the protocol chosen does, and, when the folds typed differ from
// its own, how it will run with them ("10 x 3-fold CV").
func (pp *protocolPanel) describe() {
	in := experiment.Protocols[pp.protocol.SelectedIndex()]
	text := fmt.Sprintf("%s. Default k grid: %s; stability: %s.", in.Help, gridHelp(in.Name), in.Mode)
	if n, err := strconv.Atoi(strings.TrimSpace(pp.folds.Text)); err == nil && n >= 2 && n != in.Folds {
		cfg := experiment.DefaultConfig()
		cfg.Protocol, cfg.Folds = in.Name, n
		text = fmt.Sprintf("With %d folds instead of the protocol's %d it runs as %s. %s", n, in.Folds, experiment.ProtocolText(cfg), text)
	}
	pp.help.SetText(text)
}

func (pp *protocolPanel) changed() {
	if pp.onChange != nil {
		pp.onChange()
	}
}

// buildFit makes the warning shown when the data are too small for the protocol, with
// its fixes: fewer folds, or DRAGS 2008's 3 folds.
func (pp *protocolPanel) buildFit() {
	pp.fitText = widget.NewLabel("")
	pp.fitText.Wrapping = fyne.TextWrapWord
	pp.fitText.Importance = widget.WarningImportance
	pp.useFolds = widget.NewButton("", nil)
	pp.useFolds.Importance = widget.HighImportance
	pp.useDRAGS = widget.NewButton("Use DRAGS 2008 (3-fold x 10)", func() {
		pp.folds.SetText("")
		pp.protocol.SetSelectedIndex(slices.IndexFunc(experiment.Protocols, func(p experiment.ProtocolInfo) bool { return p.Name == experiment.DRAGS2008 }))
	})
	pp.fit = container.NewVBox(pp.fitText, container.NewHBox(pp.useFolds, pp.useDRAGS), widget.NewSeparator())
	pp.fit.Hide()
}

// showFit shows problem (none when "") with a button for most folds (none when 0) and
// one for DRAGS 2008 when drags is set.
func (pp *protocolPanel) showFit(problem string, most int, drags bool) {
	if problem == "" {
		pp.fit.Hide()
		return
	}
	pp.fitText.SetText(problem + " Run would fail: choose a fix.")
	pp.useFolds.Hidden = most == 0
	pp.useFolds.SetText(fmt.Sprintf("Use %d folds", most))
	pp.useFolds.OnTapped = func() { pp.folds.SetText(strconv.Itoa(most)); pp.autoFolds = strconv.Itoa(most) }
	pp.useDRAGS.Hidden = !drags
	pp.fit.Show()
	pp.fit.Refresh()
}

func gridHelp(p experiment.Protocol) string {
	switch p {
	case experiment.DRAGS2008:
		return "4, 6, 8, 10, 20, 30, 40, 50"
	case experiment.Kalousis:
		return "10 to p in steps of 5"
	}
	return "1 to 50"
}

// fill writes the panel's settings into cfg.
func (pp *protocolPanel) fill(cfg *experiment.Config) error {
	cfg.Protocol = experiment.Protocols[max(pp.protocol.SelectedIndex(), 0)].Name
	if t := strings.TrimSpace(pp.folds.Text); t != "" {
		f, err := strconv.Atoi(t)
		if err != nil || f < 2 || f > experiment.MaxFolds {
			return fmt.Errorf("folds: %q is not a whole number from 2 to %d", t, experiment.MaxFolds)
		}
		cfg.Folds = f
		if cfg.Protocol == experiment.Kalousis {
			cfg.InnerFolds = f
		}
	}
	switch pp.mode.SelectedIndex() {
	case 1:
		cfg.Mode = experiment.Reference
	case 2:
		cfg.Mode = experiment.Pairwise
	default:
		cfg.Mode = ""
	}
	ks, err := ParseKs(pp.ks.Text)
	if err != nil {
		return err
	}
	cfg.Ks = ks
	seed, err := strconv.ParseUint(strings.TrimSpace(pp.seed.Text), 10, 64)
	if err != nil {
		return fmt.Errorf("seed: %q is not a whole number >= 0", pp.seed.Text)
	}
	cfg.Seed = seed
	if t := strings.TrimSpace(pp.workers.Text); t != "" {
		w, err := strconv.Atoi(t)
		if err != nil || w < 1 || w > 256 {
			return fmt.Errorf("workers: %q is not a whole number from 1 to 256", t)
		}
		cfg.Workers = w
	}
	am, err := strconv.Atoi(strings.TrimSpace(pp.accMax.Text))
	if err != nil || am < 1 {
		return fmt.Errorf("accuracy up to k: %q is not a whole number >= 1", pp.accMax.Text)
	}
	cfg.AccuracyMax = am
	cfg.Classifiers, cfg.ClassifierParams = nil, nil
	for _, c := range experiment.Classifiers {
		if !pp.classifs[c].Checked {
			continue
		}
		cfg.Classifiers = append(cfg.Classifiers, c)
		if form := pp.cforms[c]; form != nil {
			v, err := form.Values()
			if err != nil {
				return fmt.Errorf("%s: %w", experiment.ClassifierLabel(c), err)
			}
			for _, p := range experiment.ClassifierParamList(c) { // keep what differs from the defaults
				if v[p.Key] == p.Default {
					delete(v, p.Key)
				}
			}
			if len(v) > 0 {
				if cfg.ClassifierParams == nil {
					cfg.ClassifierParams = map[string]map[string]float64{}
				}
				cfg.ClassifierParams[c] = v
			}
		}
	}
	return nil
}

// wrapped is a label of text that wraps.
func wrapped(text string) *widget.Label {
	l := widget.NewLabel(text)
	l.Wrapping = fyne.TextWrapWord
	return l
}

// toWidgetParams are a catalogue's parameters as a form's fields.
func toWidgetParams(ps []method.Param) []widgets.Param {
	var out []widgets.Param
	for _, p := range ps {
		out = append(out, widgets.Param{Key: p.Key, Label: p.Label, Help: p.Help, Default: p.Default, Min: p.Min, Max: p.Max, Integer: p.Integer})
	}
	return out
}

// set shows a saved configuration's protocol settings.
func (pp *protocolPanel) set(cfg experiment.Config) {
	for i, p := range experiment.Protocols {
		if p.Name == cfg.Protocol {
			pp.protocol.SetSelectedIndex(i)
		}
	}
	pp.seed.SetText(strconv.FormatUint(cfg.Seed, 10))
	pp.autoFolds = ""
	pp.ks.SetText(FormatKs(cfg.Ks))
	pp.folds.SetText("")
	if in, ok := experiment.LookupProtocol(cfg.Protocol); ok && cfg.Folds > 0 && cfg.Folds != in.Folds {
		pp.folds.SetText(strconv.Itoa(cfg.Folds))
	}
	for c, ch := range pp.classifs {
		ch.SetChecked(slices.Contains(cfg.Classifiers, c))
		if form := pp.cforms[c]; form != nil {
			form.Set(cfg.ClassifierValues(c)) // the defaults where the configuration has none
		}
	}
}

// setOutcome shows the models of a survival outcome (the Cox model, ticked) or of
// classes (the defaults ticked when the kind changes).
func (pp *protocolPanel) setOutcome(survival bool) {
	if survival == pp.survival {
		return
	}
	pp.survival = survival
	pp.foldsHint.SetText(foldsHint(survival))
	def := experiment.DefaultConfig()
	if survival {
		def = experiment.DefaultSurvivalConfig()
	}
	for c, ch := range pp.classifs {
		ch.SetChecked(slices.Contains(def.Classifiers, c))
		if (c == "cox") == survival {
			ch.Show()
		} else {
			ch.Hide()
		}
	}
	pp.classBox.Refresh()
}

// foldsHint says what the folds need, for a survival outcome (survival) or classes.
func foldsHint(survival bool) string {
	if survival {
		return "folds stratified by the event: every fold needs an event, so the follow-up needs this many events"
	}
	return "stratified folds: every class needs this many samples"
}

// ParseKs reads a k grid such as "1-50", "4,6,8,10,20-50:10" (a-b:step) or "" (the protocol's).
func ParseKs(s string) ([]int, error) {
	s = strings.TrimSpace(s)
	if s == "" {
		return nil, nil
	}
	var out []int
	for _, part := range strings.Split(s, ",") {
		part = strings.TrimSpace(part)
		step := 1
		if i := strings.IndexByte(part, ':'); i >= 0 {
			st, err := strconv.Atoi(strings.TrimSpace(part[i+1:]))
			if err != nil || st < 1 {
				return nil, fmt.Errorf("k grid: step in %q is not a whole number >= 1", part)
			}
			step, part = st, part[:i]
		}
		lo, hi := part, part
		if i := strings.IndexByte(part, '-'); i > 0 {
			lo, hi = part[:i], part[i+1:]
		}
		a, err1 := strconv.Atoi(strings.TrimSpace(lo))
		b, err2 := strconv.Atoi(strings.TrimSpace(hi))
		if err1 != nil || err2 != nil || a < 1 || b < a {
			return nil, fmt.Errorf("k grid: %q is not k, a-b or a-b:step with 1 <= a <= b", part)
		}
		for k := a; k <= b; k += step {
			out = append(out, k)
		}
	}
	return out, nil
}

// FormatKs writes a k grid compactly: runs of one become a-b.
func FormatKs(ks []int) string {
	var parts []string
	for i := 0; i < len(ks); {
		j := i
		for j+1 < len(ks) && ks[j+1] == ks[j]+1 {
			j++
		}
		if j > i+1 {
			parts = append(parts, fmt.Sprintf("%d-%d", ks[i], ks[j]))
		} else {
			for t := i; t <= j; t++ {
				parts = append(parts, strconv.Itoa(ks[t]))
			}
		}
		i = j + 1
	}
	return strings.Join(parts, ",")
}

// undoFoldsFix sets the folds back to the protocol's when the "Use N folds" fix of
// another file set them, and says so ("" when it did not).
func (pp *protocolPanel) undoFoldsFix() string {
	if pp.autoFolds == "" || strings.TrimSpace(pp.folds.Text) != pp.autoFolds {
		pp.autoFolds = ""
		return ""
	}
	pp.folds.SetText("")
	was := pp.autoFolds
	pp.autoFolds = ""
	return fmt.Sprintf("The %s folds chosen for the previous file's small class are undone: the protocol's own folds again.", was)
}
