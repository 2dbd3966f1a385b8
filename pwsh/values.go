package pwsh

import (
	"encoding/base64"
	"strings"
	"unicode/utf16"
)

// known returns the value of a variable whose value toolwall knows
// ($HOME, $env:USERPROFILE, $env:TEMP, $true, …), and whether it knows
// it. Environment variable names are case-insensitive.
func (t *tr) known(name string) (string, bool) {
	n := strings.ToLower(name)
	switch n {
	case "home", "env:userprofile", "env:home", "env:homepath":
		return t.home, t.home != ""
	case "pwd":
		return t.cwd, t.cwd != ""
	case "env:temp", "env:tmp":
		return "/tmp", true
	case "env:appdata":
		return t.home + "/AppData/Roaming", t.home != ""
	case "env:localappdata":
		return t.home + "/AppData/Local", t.home != ""
	case "env:systemroot", "env:windir":
		return "/Windows", true
	case "env:systemdrive", "env:homedrive":
		return "", true
	case "env:programfiles":
		return "/Program Files", true
	case "env:programdata", "env:allusersprofile":
		return "/ProgramData", true
	case "profile":
		return t.home + "/Documents/PowerShell/Microsoft.PowerShell_profile.ps1", t.home != ""
	case "true":
		return "True", true
	case "false":
		return "False", true
	case "null":
		return "", true
	}
	return "", false
}

// dynamic is the bash spelling of a variable toolwall does not know.
func dynamic(name string) string {
	clean := strings.Map(func(r rune) rune {
		if r >= 'a' && r <= 'z' || r >= 'A' && r <= 'Z' || r >= '0' && r <= '9' {
			return r
		}
		return '_'
	}, name)
	return `"${PS_` + clean + `}"`
}

// value translates a value into one bash word; sides are the commands
// whose output the value is (a download, a file read), already in word
// as a command substitution.
func (t *tr) value(v *value, glob bool) (string, []string) {
	return t.render(v, false, glob)
}

// pathValue translates a value that may be a path: Windows paths read
// as POSIX ones.
func (t *tr) pathValue(v *value, glob bool) (string, []string) {
	return t.render(v, true, glob)
}

// valueAs translates a cmdlet parameter's value.
func (t *tr) valueAs(v *value, isPath bool) (string, []string) {
	return t.render(v, isPath, isPath)
}

func (t *tr) render(v *value, isPath, glob bool) (string, []string) {
	if v == nil {
		return dynamic("missing"), nil
	}
	switch v.kind {
	case vWord:
		if lit, ok := v.literal(); ok {
			if isPath {
				lit = t.path(lit)
			}
			if glob {
				return globQuote(lit), nil
			}
			return quote(lit), nil
		}
		if w, ok := t.itemWord(v); ok {
			return w, nil
		}
		var b strings.Builder
		for i, p := range v.parts {
			switch {
			case p.group != nil:
				b.WriteString(`"$(` + t.stmts(p.group) + `)"`)
			case p.varb != "":
				if val, ok := t.known(p.varb); ok {
					b.WriteString(quote(val))
				} else {
					b.WriteString(dynamic(p.varb))
				}
			default:
				lit := p.lit
				if isPath {
					lit = strings.ReplaceAll(lit, `\`, "/")
					if i == 0 {
						if q, ok := t.pathPrefix(lit); ok {
							lit = q
						}
					}
				}
				switch {
				case lit != "" && glob:
					// -Path expands wildcards whatever the quoting:
					// "$env:USERPROFILE\*" is every entry of the home
					b.WriteString(globQuote(lit))
				case lit != "":
					b.WriteString(quote(lit))
				}
			}
		}
		if b.Len() == 0 {
			return "''", nil
		}
		return b.String(), nil
	case vGroup, vBlock, vHash, vType:
		sides := t.sides(v)
		if len(sides) == 0 {
			if v.kind == vType {
				return dynamic("expr"), nil
			}
			return dynamic("expr"), nil
		}
		return `"$(` + strings.Join(sides, "; ") + `)"`, sides
	}
	return dynamic("expr"), nil
}

// pathPrefix converts a leading drive ("C:/x") in a path's first literal
// piece.
func (t *tr) pathPrefix(s string) (string, bool) {
	if len(s) >= 2 && s[1] == ':' && (s[0]|0x20) >= 'a' && (s[0]|0x20) <= 'z' {
		return "/" + strings.TrimLeft(s[2:], "/"), true
	}
	return s, false
}

// sides lists the commands a group, block, type or hashtable value runs,
// and the .NET calls on it that download, upload, read, write or delete,
// as the commands of the catalog that do the same.
func (t *tr) sides(v *value) []string {
	var out []string
	if x := t.stmts(v.stmts); x != "" && v.kind != vHash {
		out = append(out, x)
	}
	if v.kind == vHash {
		for _, s := range v.stmts {
			if x := t.stmt(s); x != "" && !strings.HasPrefix(x, ":") {
				out = append(out, x)
			}
		}
	}
	base := strings.ToLower(strings.TrimPrefix(v.name, "System."))
	for _, m := range v.args {
		args := m.args
		for _, a := range args {
			if a.kind == vGroup || a.kind == vBlock || a.kind == vType {
				out = append(out, t.sides(a)...)
			}
		}
		arg := func(i int, isPath bool) string {
			if i >= len(args) || args[i] == nil {
				return dynamic("arg")
			}
			w, _ := t.render(args[i], isPath, false)
			return w
		}
		mark := t.mark(v.text)
		switch strings.ToLower(m.name) {
		case "downloadstring", "downloaddata", "openread", "getstringasync", "getasync", "getbytearrayasync":
			out = append(out, mark+"curl -s -- "+arg(0, false))
		case "downloadfile", "downloadfileasync", "downloadfiletaskasync":
			out = append(out, mark+"curl -s -o "+arg(1, true)+" -- "+arg(0, false))
		case "uploadfile", "uploadfileasync":
			out = append(out, mark+"curl -s -T "+arg(1, true)+" -- "+arg(0, false))
		case "uploadstring", "uploaddata", "uploadvalues", "postasync", "putasync":
			out = append(out, mark+"curl -s -d "+arg(1, false)+" -- "+arg(0, false))
		case "readalltext", "readallbytes", "readalllines", "opentext":
			if strings.HasSuffix(base, "io.file") {
				out = append(out, mark+"cat -- "+arg(0, true))
			}
		case "writealltext", "writeallbytes", "writealllines":
			if strings.HasSuffix(base, "io.file") {
				out = append(out, mark+"printf %s "+arg(1, false)+" > "+arg(0, true))
			}
		case "appendalltext", "appendalllines":
			if strings.HasSuffix(base, "io.file") {
				out = append(out, mark+"printf %s "+arg(1, false)+" >> "+arg(0, true))
			}
		case "delete":
			switch {
			case strings.HasSuffix(base, "io.directory") && len(args) > 1:
				out = append(out, mark+"rm -r -f -- "+arg(0, true))
			case strings.HasSuffix(base, "io.directory"):
				out = append(out, mark+"rmdir -- "+arg(0, true))
			case strings.HasSuffix(base, "io.file"):
				out = append(out, mark+"rm -f -- "+arg(0, true))
			}
		case "create":
			if strings.HasSuffix(base, "scriptblock") && len(args) > 0 && args[0] != nil {
				out = append(out, t.code(args[0], mark))
			}
		}
	}
	return out
}

// decoded finds, in a value, text decoded from a base64 literal
// ([Convert]::FromBase64String('…'), read as UTF-16LE when the chain
// names Unicode, else UTF-8).
func (t *tr) decoded(v *value) (string, bool) {
	var lit string
	unicode := false
	var walk func(v *value) bool
	walkStmt := func(s *stmt) bool {
		for _, pl := range s.pipes {
			for _, e := range pl.elems {
				for _, x := range e.expr {
					if walk(x) {
						return true
					}
				}
				for _, a := range e.args {
					for _, x := range a.values {
						if walk(x) {
							return true
						}
					}
				}
			}
		}
		return false
	}
	walk = func(v *value) bool {
		if v == nil {
			return false
		}
		if strings.Contains(strings.ToLower(v.text), "unicode") {
			unicode = true
		}
		for _, m := range v.args {
			if strings.EqualFold(m.name, "frombase64string") && len(m.args) == 1 {
				if l, ok := m.args[0].literal(); ok {
					lit = l
					return true
				}
			}
			for _, a := range m.args {
				if walk(a) {
					return true
				}
			}
		}
		for _, s := range v.stmts {
			if walkStmt(s) {
				return true
			}
		}
		return false
	}
	if !walk(v) {
		return "", false
	}
	b, err := base64.StdEncoding.DecodeString(strings.TrimSpace(lit))
	if err != nil {
		return "", false
	}
	if unicode && len(b)%2 == 0 {
		u := make([]uint16, len(b)/2)
		for i := range u {
			u[i] = uint16(b[2*i]) | uint16(b[2*i+1])<<8
		}
		return string(utf16.Decode(u)), true
	}
	return string(b), true
}

// globQuote quotes s as one bash word whose * and ? stay patterns.
func globQuote(s string) string {
	if !strings.ContainsAny(s, "*?") {
		return quote(s)
	}
	var b strings.Builder
	start := 0
	for i, r := range s {
		if r == '*' || r == '?' {
			if i > start {
				b.WriteString(quote(s[start:i]))
			}
			b.WriteRune(r)
			start = i + 1
		}
	}
	if start < len(s) {
		b.WriteString(quote(s[start:]))
	}
	return b.String()
}

// expanded is the text of a string whose variables all have known
// values, as PowerShell expands them before the code the string holds
// runs (pwsh -Command "Get-ChildItem $HOME | …"): a value with blanks
// or quotes is quoted for the code it lands in. ok is false when a part
// is only known at run time.
func (t *tr) expanded(v *value) (string, bool) {
	if v == nil || v.kind != vWord {
		return "", false
	}
	var b strings.Builder
	for _, p := range v.parts {
		switch {
		case p.group != nil:
			return "", false
		case p.varb != "":
			val, ok := t.known(p.varb)
			if !ok {
				return "", false
			}
			if strings.ContainsAny(val, " \t'\"$`;|&(){},") {
				val = "'" + strings.ReplaceAll(val, "'", "''") + "'"
			}
			b.WriteString(val)
		default:
			b.WriteString(p.lit)
		}
	}
	return b.String(), true
}

// itemWord renders $_ or $PSItem, alone or as .FullName, .PSPath or
// .FullPath, as the items they stand for in a ForEach-Object block fed
// by a cmdlet whose items are known (Get-ChildItem ~ | % { rm $_ … }).
func (t *tr) itemWord(v *value) (string, bool) {
	if t.item == nil || !t.item.known || len(v.parts) != 1 || len(t.item.words) == 0 {
		return "", false
	}
	switch strings.ToLower(v.parts[0].varb) {
	case "_", "psitem":
	default:
		return "", false
	}
	for _, m := range v.args {
		switch strings.ToLower(m.name) {
		case "fullname", "pspath", "fullpath":
		default:
			return "", false
		}
		if len(m.args) > 0 {
			return "", false
		}
	}
	return strings.Join(t.item.words, " "), true
}
