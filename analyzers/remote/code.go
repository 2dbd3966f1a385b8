package remote

import (
	"strings"
)

// The rules in this file read interpreter one-liners as text, not as
// parsed programs. They are narrow on purpose: a fetch rule needs both a
// network call and an evaluation call of the same language; a delete rule
// needs a known recursive-delete call outside string literals. Code built
// at run time (getattr(shutil, "rm"+"tree"), string concatenation, imports
// under another name, subprocess with a list argv) is not seen.

// langRE is a regexp per language, nil where a language has none.
type langRE map[lang]*lazyRE

func (m langRE) match(l lang, s string) bool {
	re := m[l]
	return re != nil && re.MatchString(s)
}

// fetchRE: a network read in the language's standard or common library.
// Raw sockets are not here: what a program does with a connection is
// read by the remote-shell facts (netshell.go).
var fetchRE = langRE{
	langPython: lazyRegexp(`urlopen|urlretrieve|urllib|\brequests\b|http\.client|httpx|pycurl|aiohttp`),
	langNode:   lazyRegexp(`\bfetch\s*\(|https?\.(get|request)\s*\(|require\s*\(\s*['"]https?['"]|from\s+['"]https?['"]|axios|XMLHttpRequest|import\s*\(\s*['"]https?:`),
	langPerl:   lazyRegexp(`LWP|HTTP::Tiny|Net::HTTP|getstore|getprint|\bget\s*\(?\s*['"]https?:`),
	langRuby:   lazyRegexp(`open-uri|Net::HTTP|URI\.open|URI\(|URI\.parse|\bopen\s*\(?\s*['"]https?:|HTTParty|Faraday`),
	langPHP:    lazyRegexp(`(file_get_contents|fopen|readfile|file|copy)\s*\(\s*['"](https?|ftp):|curl_exec`),
	langLua:    lazyRegexp(`socket\.http|http\.request|io\.popen\s*\(\s*['"](curl|wget)`),
	langPwsh:   lazyRegexp(`(?i)invoke-webrequest|\biwr\b|invoke-restmethod|\birm\b|net\.webclient|downloadstring|downloaddata|start-bitstransfer`),
	langShell:  nil,
}

// evalRE: running text as code, or handing it to a shell or process.
var evalRE = langRE{
	langPython: lazyRegexp(`\bexec\s*\(|\beval\s*\(|\bcompile\s*\(|os\.system|os\.popen|os\.exec|subprocess|__import__\s*\(|pty\.spawn|runpy|\bexec\s+`),
	langNode:   lazyRegexp(`\beval\b|\bFunction\s*\(|child_process|\bvm\b|execSync|spawnSync|\bexec\s*\(|\bspawn\s*\(|import\s*\(\s*['"]data:`),
	langPerl:   lazyRegexp(`\beval\b|\bsystem\b|\bexec\b|\bqx\b|` + "`" + `|\bopen\s*\([^)]*\|`),
	langRuby:   lazyRegexp(`\beval\b|instance_eval|class_eval|module_eval|\bsystem\b|\bexec\b|%x|` + "`" + `|IO\.popen|Open3|\bspawn\b|\bload\b`),
	langPHP:    lazyRegexp(`\beval\s*\(|\bsystem\s*\(|\bexec\s*\(|passthru|shell_exec|\bpopen|proc_open|\bassert\s*\(|\binclude\b|\brequire\b|` + "`"),
	langLua:    lazyRegexp(`loadstring|\bload\s*\(|dofile|os\.execute|io\.popen`),
	langPwsh:   lazyRegexp(`(?i)invoke-expression|\biex\b|scriptblock\]::create|start-process|invoke-command|\|\s*&`),
	// awk runs text as a command through system() of something other than
	// a literal, or by printing into a pipe to a shell.
	langAwk:   lazyRegexp(`\|\s*"\s*(/\S*/)?(ba|da|z|k|c|tc|fi)?sh\b`),
	langShell: nil,
}

// decodeRE: decoding an encoded blob (base64, hex, zlib, rot13).
var decodeRE = langRE{
	langPython: lazyRegexp(`b64decode|b32decode|b85decode|decodebytes|base64\.decode|codecs\.decode|zlib\.decompress|bytes\.fromhex|unhexlify|marshal\.loads|join\s*\(\s*(map\s*\(\s*)?chr\b`),
	langNode:   lazyRegexp(`Buffer\.from\s*\([^)]*['"](base64|hex|base64url)['"]|\batob\s*\(|zlib\.(inflate|gunzip)|\bunescape\s*\(|decodeURI(Component)?\s*\(|String\.fromCharCode`),
	langPerl:   lazyRegexp(`decode_base64|unpack\s*\(?\s*['"](m|H|u)|pack\s*\(?\s*['"]H`),
	langRuby:   lazyRegexp(`Base64\.(decode64|strict_decode64|urlsafe_decode64)|unpack1?\s*\(?\s*['"](m|H|u)|\.pack\s*\(?\s*['"][Hm]|Zlib::Inflate`),
	langPHP:    lazyRegexp(`base64_decode|gzinflate|gzuncompress|gzdecode|str_rot13|hex2bin|convert_uudecode`),
	langLua:    nil,
	langPwsh:   lazyRegexp(`(?i)frombase64string|::unicode\.getstring|gzipstream|deflatestream`),
	langShell:  nil,
}

// stdinRE: reading standard input as a whole.
var stdinRE = langRE{
	langPython: lazyRegexp(`sys\.stdin|input\s*\(|fileinput|/dev/stdin`),
	langNode:   lazyRegexp(`process\.stdin|readFileSync\s*\(\s*(0|['"]/dev/stdin)`),
	langPerl:   lazyRegexp(`<STDIN>|<>|\*STDIN`),
	langRuby:   lazyRegexp(`STDIN|\$stdin|ARGF|\bgets\b`),
	langPHP:    lazyRegexp(`php://stdin|STDIN|fgets`),
	langLua:    lazyRegexp(`io\.read|io\.stdin`),
	langPwsh:   lazyRegexp(`(?i)\$input|\[console\]::in`),
	// awk reads its standard input unless given files.
	langAwk:   lazyRegexp(`^`),
	langShell: nil,
}

// evalsStdin reports one-liner code that evaluates what it reads from
// stdin (python -c "exec(sys.stdin.read())"): it runs piped input as code.
func evalsStdin(l lang, code string) bool {
	if l == langAwk && awkSystemRE.MatchString(maskStrings(code)) {
		return true
	}
	return stdinRE.match(l, code) && evalRE.match(l, code)
}

// awkSystemRE: awk's system() of something other than a string literal
// (matched on code with literals blanked), such as a field: system($0).
var awkSystemRE = lazyRegexp(`\bsystem\s*\([^)]*[$A-Za-z_]`)

// fetches reports whether one-liner code of language l reads the network.
func fetches(l lang, code string) bool { return fetchRE.match(l, code) }

// fetchAndEval reports code that downloads and evaluates.
func fetchAndEval(l lang, code string) bool {
	return fetchRE.match(l, code) && evalRE.match(l, code)
}

// decodeAndEval reports code that decodes a blob and evaluates it.
func decodeAndEval(l lang, code string) bool {
	return decodeRE.match(l, code) && evalRE.match(l, code)
}

// forkBombRE: a loop that forks without end ("fork while fork", "while
// True: os.fork()", "loop { fork }").
var forkBombRE = langRE{
	langPerl:   lazyRegexp(`\bfork\s+(while|until|for)\b|\b(while|until)\s*\(\s*(1|fork)?\s*\)\s*\{\s*fork\b|\b1\s+while\s+fork\b|\{\s*fork\s*;\s*redo\b`),
	langPython: lazyRegexp(`\bwhile\s+(True|1)\s*:\s*(os\.)?fork\s*\(|\bwhile\s+(True|1)\s*:\s*\n\s+(os\.)?fork\s*\(`),
	langRuby:   lazyRegexp(`\bloop\s*(\{|do)\s*(Process\.)?fork\b|\bfork\s+(while|until)\s+(true|1)\b|\bwhile\s+true\s*(do|;)?\s*(Process\.)?fork\b`),
	langPHP:    lazyRegexp(`\bwhile\s*\(\s*(1|true)\s*\)\s*\{?\s*pcntl_fork\s*\(`),
}

// forkBomb reports one-liner code that forks in an endless loop.
func forkBomb(l lang, code string) bool { return forkBombRE.match(l, code) }

// deleteRE: recursive deletes, matched on code with string literals blanked.
var deleteRE = langRE{
	langPython: lazyRegexp(`\brmtree\s*\(|\bos\.removedirs\s*\(|\bremovedirs\s*\(`),
	langNode:   lazyRegexp(`\b(rmSync|rmdirSync|rm|rmdir)\s*\(|\brimraf\s*\(|\b(fse?|fsExtra)\.(remove|emptyDir)\s*\(|\b(removeSync|emptyDirSync)\s*\(|\bDeno\.remove(Sync)?\s*\(`),
	langPerl:   lazyRegexp(`\b(rmtree|remove_tree)\b`),
	langRuby:   lazyRegexp(`\b(rm_rf|rm_r|remove_dir|remove_entry|remove_entry_secure|rmtree)\b`),
	langPwsh:   lazyRegexp(`(?i)\b(remove-item|rm|rmdir|del|ri)\b[^;|]*-r(ecurse)?\b`),
	langPHP:    nil,
	langLua:    nil,
	langShell:  nil,
}

// nodeNeedsRecursive lists Node calls that only delete a tree with
// {recursive: true}.
var nodeNeedsRecursive = lazyRegexp(`^(rmSync|rmdirSync|rm|rmdir|Deno\.remove)`)

// Targets that make a recursive delete catastrophic: the root, or the
// home directory however the language spells it.
var (
	rootArgRE = lazyRegexp(`^\s*\(?\s*(\w+\.)?(Path\s*\(\s*)?['"]/+(\*)?['"]`)
	homeArgRE = lazyRegexp(`(?i)(expanduser|expand_path)\s*\(\s*['"]~|Path\.home\s*\(|homedir\s*\(|Dir\.home|ENV\s*\[\s*['"]HOME|\$ENV\s*\{\s*['"]?HOME|environ\s*(\[\s*|\.get\s*\(\s*)['"]HOME|getenv\s*\(\s*['"]HOME|process\.env\.HOME|\$HOME|\$env:(USERPROFILE|HOME)|^\s*\(?\s*['"]~/?['"]`)
)

// deletion is a recursive delete found in one-liner code.
type deletion struct {
	call string // the call as written ("shutil.rmtree")
	// catastrophic is "/" or "home" when the target is the root or the
	// home directory, else "".
	catastrophic string
	// targets are the literal paths the deletes name, in order ("~" and
	// "~/…" for PowerShell's home).
	targets []string
	// unknown: a delete call whose target is not a string literal.
	unknown bool
}

// recursiveDelete finds the first recursive-delete call in code outside
// string literals. home is the caller's home directory for literal paths.
func recursiveDelete(l lang, code, home string) (deletion, bool) {
	re := deleteRE[l]
	if re == nil {
		return deletion{}, false
	}
	var found deletion
	ok := false
	masked := maskStrings(code)
	for _, loc := range re.FindAllStringIndex(masked, -1) {
		call := strings.TrimRight(masked[loc[0]:loc[1]], " \t(")
		after := code[loc[1]:]
		if i := strings.IndexAny(after, ";\n"); i >= 0 && l != langPwsh {
			after = after[:i]
		}
		if l == langNode && nodeNeedsRecursive.MatchString(call) && !strings.Contains(after, "recursive") {
			continue
		}
		d := deletion{call: call}
		arg := strings.TrimSpace(strings.TrimPrefix(after, "("))
		switch {
		case rootArgRE.MatchString(after) || rootArgRE.MatchString(arg):
			d.catastrophic = "/"
		case homeArgRE.MatchString(after):
			d.catastrophic = "home"
		case home != "" && home != "/" && literalIs(arg, home):
			d.catastrophic = "home"
		}
		if t := deleteTarget(l, code[loc[0]:], arg); len(t) > 0 {
			d.targets = t
		} else {
			d.unknown = true
		}
		targets := append(found.targets, d.targets...)
		unknown := found.unknown || d.unknown
		if !ok || (found.catastrophic == "" && d.catastrophic != "") {
			found, ok = d, true
		}
		found.targets, found.unknown = targets, unknown
	}
	if !ok && l == langNode && rimrafRE.MatchString(code) {
		found, ok = deletion{call: "rimraf", unknown: true}, true
	}
	return found, ok
}

// wrapCallRE is a constructor around a path literal: Path('/etc'),
// pathlib.Path("x"), new File('x').
var wrapCallRE = lazyRegexp(`^(new\s+)?[A-Za-z_][\w.]*\s*\(\s*`)

// deleteTarget returns the literal paths a recursive-delete call names:
// the string literal that starts its argument (arg, maybe inside a
// constructor such as Path(…)), or for PowerShell the path words of the
// statement (stmt, from the cmdlet on) — bare words and -Path /
// -LiteralPath values, with ~ and $HOME spelled "~".
func deleteTarget(l lang, stmt, arg string) []string {
	if l != langPwsh {
		arg = strings.TrimPrefix(arg, wrapCallRE.FindString(arg))
		if arg == "" || (arg[0] != '\'' && arg[0] != '"') {
			return nil
		}
		end := strings.IndexByte(arg[1:], arg[0])
		if end < 0 || strings.ContainsAny(arg[1:1+end], "\\$#{") {
			return nil
		}
		return []string{arg[1 : 1+end]}
	}
	if i := strings.IndexAny(stmt, ";|\n"); i >= 0 {
		stmt = stmt[:i]
	}
	f := strings.Fields(stmt)
	var out []string
	for i := 1; i < len(f); i++ {
		t := strings.ToLower(f[i])
		switch {
		case t == "-path" || t == "-literalpath" || t == "-lp" || t == "-pspath":
			if i+1 < len(f) {
				i++
				out = append(out, pwshPath(f[i]))
			}
		case t == "-filter" || t == "-include" || t == "-exclude" || t == "-credential" || t == "-stream":
			i++
		case strings.HasPrefix(t, "-"):
		default:
			out = append(out, pwshPath(f[i]))
		}
	}
	return out
}

// pwshPath unquotes a PowerShell path word and spells its home forms "~".
func pwshPath(w string) string {
	w = strings.Trim(w, `'"`)
	lw := strings.ToLower(w)
	for _, h := range []string{"$home", "$env:home", "$env:userprofile", "${env:home}"} {
		if rest, ok := strings.CutPrefix(lw, h); ok && (rest == "" || rest[0] == '/' || rest[0] == '\\') {
			return "~" + w[len(h):]
		}
	}
	return w
}

// rimrafRE finds the rimraf package loaded by name (its calls go through
// the module object, so the name is a string literal).
var rimrafRE = lazyRegexp(`(require|import)\s*\(?\s*['"]rimraf['"]|from\s+['"]rimraf['"]`)

// literalIs reports whether s starts with a string literal equal to p
// (with or without a trailing slash).
func literalIs(s, p string) bool {
	if s == "" || (s[0] != '\'' && s[0] != '"') {
		return false
	}
	end := strings.IndexByte(s[1:], s[0])
	if end < 0 {
		return false
	}
	return strings.TrimSuffix(s[1:1+end], "/") == p
}

// maskStrings returns code with the contents of '…', "…" and `…` literals
// replaced by spaces (same length), so calls quoted as data are not read
// as calls. Backslash escapes are honoured; an unclosed literal runs to
// the end.
func maskStrings(code string) string {
	b := []byte(code)
	var q byte
	for i := 0; i < len(b); i++ {
		c := b[i]
		switch {
		case q == 0 && (c == '\'' || c == '"' || c == '`'):
			q = c
		case q != 0 && c == '\\' && i+1 < len(b):
			b[i], b[i+1] = ' ', ' '
			i++
		case q != 0 && c == q:
			q = 0
		case q != 0:
			b[i] = ' '
		}
	}
	return string(b)
}
