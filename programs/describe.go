package programs

import (
	"fmt"
	"io"
	"strings"
)

// Describe writes what the catalog says about p, for people: its names,
// what it is, how it reads options, each option with its spellings,
// canonical name and role, the operand and stdin rules, and each
// subcommand the same way, indented.
func (p *Program) Describe(w io.Writer) error {
	var b strings.Builder
	p.describe(&b, "")
	_, err := io.WriteString(w, b.String())
	return err
}

func (p *Program) describe(b *strings.Builder, in string) {
	if p.Parent == nil {
		fmt.Fprintf(b, "%sprogram %s  (%s:%d)\n", in, strings.Join(p.Names, " "), p.File, p.Line)
	} else {
		fmt.Fprintf(b, "%ssub %s\n", in, strings.Join(p.Names, "|"))
	}
	in2 := in + "  "
	if p.Doc != "" {
		fmt.Fprintf(b, "%s%s\n", in2, p.Doc)
	}
	var flags []string
	for name, st := range styleNames {
		if p.Style&st != 0 && (p.Parent == nil || p.Parent.Style&st == 0) {
			flags = append(flags, name)
		}
	}
	if len(flags) > 0 {
		sortStrings(flags)
		fmt.Fprintf(b, "%sstyle: %s\n", in2, strings.Join(flags, " "))
	}
	var traits []string
	if p.Wrapper {
		traits = append(traits, "wrapper (runs its argv in its place)")
	}
	if p.Privileged {
		t := "privileged"
		if len(p.Unprivileged) > 0 {
			t += " unless " + conds(p.Unprivileged)
		}
		traits = append(traits, t)
	}
	if p.Recursive {
		traits = append(traits, "acts on whole trees")
	}
	if p.Versions {
		traits = append(traits, "versioned names")
	}
	if p.Lang != "" && (p.Parent == nil || p.Parent.Lang != p.Lang) {
		traits = append(traits, "language "+p.Lang)
	}
	if p.Grammar != "" {
		traits = append(traits, "grammar "+p.Grammar)
	}
	if p.Prints != "" {
		t := "prints " + p.Prints
		if len(p.PrintsIf) > 0 {
			t += " if " + conds(p.PrintsIf)
		}
		traits = append(traits, t)
	}
	if p.HasTree {
		t := "writes entries it does not name under its directory"
		if len(p.TreeWrites) > 0 {
			t += " if " + conds(p.TreeWrites)
		}
		traits = append(traits, t)
	}
	for _, f := range p.Flows {
		t := "what it writes or prints is what it reads, " + f.Kind
		if len(f.Cond) > 0 {
			t += " if " + conds(f.Cond)
		}
		traits = append(traits, t)
	}
	for _, r := range p.Runs {
		t := "runs as code: " + strings.Join(r.Files, " ")
		if len(r.Cond) > 0 {
			t += " if " + conds(r.Cond)
		}
		traits = append(traits, t)
	}
	for _, wd := range p.Workdirs {
		t := "its command starts in " + wd.Dir
		if len(wd.Cond) > 0 {
			t += " if " + conds(wd.Cond)
		}
		traits = append(traits, t)
	}
	if len(p.EnvCommands) > 0 {
		traits = append(traits, "environment variables that are shell commands: "+strings.Join(p.EnvCommands, " "))
	}
	if len(p.ShellConfig) > 0 {
		traits = append(traits, "settings that are shell commands: "+strings.Join(p.ShellConfig, " "))
	}
	for _, t := range traits {
		fmt.Fprintf(b, "%s%s\n", in2, t)
	}
	for _, o := range p.Options {
		var sp []string
		for _, s := range o.Spellings {
			v := s.Text
			switch s.Arg {
			case ReqArg:
				v += " VALUE"
				if s.Words > 1 {
					v += fmt.Sprintf("×%d", s.Words)
				}
			case OptArg:
				v += "[VALUE]"
			case Digits:
				v += "[DIGITS]"
			}
			sp = append(sp, v)
		}
		line := fmt.Sprintf("%soption %s = %s", in2, strings.Join(sp, ", "), o.Name)
		if o.Role != Unknown {
			line += " -> " + o.Role.String()
		}
		if o.Ends {
			line += " (ends the options)"
		}
		b.WriteString(line + "\n")
	}
	for _, r := range p.Operands {
		var roles []string
		for i, role := range r.Roles {
			s := role.String()
			if i == r.Repeat {
				s += "…"
			}
			roles = append(roles, s)
		}
		line := fmt.Sprintf("%soperands: %s", in2, strings.Join(roles, " "))
		if len(r.Cond) > 0 {
			line += " if " + conds(r.Cond)
		}
		b.WriteString(line + "\n")
	}
	for _, r := range p.Stdin {
		line := fmt.Sprintf("%sstdin: %s", in2, r.Role)
		if len(r.Cond) > 0 {
			line += " if " + conds(r.Cond)
		}
		b.WriteString(line + "\n")
	}
	for _, s := range p.Subs {
		if s.Parent != p {
			fmt.Fprintf(b, "%ssub %s = %s\n", in2, strings.Join(s.Names, "|"), s.Path())
			continue
		}
		s.describe(b, in2)
	}
}

func conds(cs []Cond) string {
	var out []string
	for _, c := range cs {
		t := c.Name
		if len(c.Values) > 0 {
			t += "=" + strings.Join(c.Values, "|")
		}
		if c.Not {
			t = "!" + t
		}
		out = append(out, t)
	}
	return strings.Join(out, ",")
}

func sortStrings(s []string) {
	for i := 1; i < len(s); i++ {
		for j := i; j > 0 && s[j] < s[j-1]; j-- {
			s[j], s[j-1] = s[j-1], s[j]
		}
	}
}
