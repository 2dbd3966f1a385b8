package remote

import (
	"strings"
	"sync"

	"github.com/toolwall/toolwall/shell"
)

// A program of any language that opens a network connection (or
// listens for one) and hands it to a shell or to whatever it runs is a
// remote shell, whatever the language (MITRE T1059 with a C2 channel).
// What each language's standard library does is declared below, one
// list of facts per language, and the rule is written once, over the
// facts: connects, spawns, and either hands the connection's
// descriptor to what it spawns or runs what it receives on it.

// netFacts are the declared facts of one language, each a list of
// patterns over program text (any one matching is the fact).
type netFacts struct {
	// connects: a call that opens a network connection or a listening
	// socket.
	connects []string
	// receives: a read from a socket or stream the program holds.
	receives []string
	// handoff: a descriptor duplicated onto standard input, output or
	// error, or handed to a child process as its stdio.
	handoff []string
	// spawns: a call that starts a program, hands text to a shell, or
	// evaluates text as code.
	spawns []string
}

// fdRedirect is a shell redirection, written in program text, from or
// to a descriptor the program holds (sh -i <&3 >&3, "<&%d", >&$fd,
// #{f}): the shell it starts talks to the program's socket.
const fdRedirect = `[<>]&\s*([3-9]|%d|\$\w|#\{|\{\w)`

// shellFacts declares, per language, what connects or listens, what
// receives, what duplicates descriptors and what spawns, from each
// language's standard library (Python socket/os/pty/subprocess,
// Node.js net/tls/dgram/child_process, Perl Socket/IO::Socket/perlfunc,
// Ruby socket/Kernel/IO/Open3, PHP sockets and streams/program
// execution, LuaSocket/os/io, Tcl socket/exec, Julia Sockets/Cmd,
// java.net and java.lang.ProcessBuilder under jrunscript, Go net and
// os/exec, gawk's /inet special files, .NET System.Net.Sockets under
// PowerShell).
var shellFacts = map[lang]netFacts{
	langPython: {
		connects: []string{`\.connect(_ex)?\s*\(\s*\(`, `\.bind\s*\(\s*\(`, `\bcreate_connection\b`, `\bcreate_server\b`, `\bsocket\.fromfd\b`, `\bsocketserver\b`, `\.accept\s*\(\s*\)`},
		receives: []string{`\.recv(from|_into)?\s*\(`, `\.makefile\s*\(`},
		handoff:  []string{`\bdup2?\b`, `\bstd(in|out|err)\s*=\s*[^,)]*fileno`, `\bstd(in|out|err)\s*=\s*[a-z_]\w*\s*[,)]`, fdRedirect},
		spawns:   []string{`\bsubprocess\b`, `\bpty\b`, `\bPopen\b`, `\bspawn[lv]?p?e?\b`, `\bos\.(system|popen|exec\w*|posix_spawn\w*)\b`, `\bexecv?l?p?e?\b`, `\bsystem\b`, `\bcall\b`, `\bexec\s*\(`},
	},
	langNode: {
		connects: []string{`(require\s*\(\s*|from\s+|import\s*\(\s*)['"](node:)?(net|tls|dgram)['"]`, `\bnet\.(connect|createConnection|createServer|Socket)\b`, `\btls\.connect\b`, `\bBun\.(connect|listen)\b`, `\bDeno\.(connect|listen)\b`},
		receives: []string{`\.on\s*\(\s*['"]data['"]`, `\.pipe\s*\(`},
		handoff:  []string{`\.pipe(To)?\s*\(\s*[\w.]*\.stdin\b`, `\.std(out|err)\.pipe(To)?\s*\(`, `\bstdio\s*:\s*\[`, fdRedirect},
		spawns:   []string{`child_process`, `\bspawn(Sync)?\s*\(`, `\bexec(Sync|File|FileSync)?\s*\(`, `\bBun\.spawn\b`, `\bDeno\.(Command|run)\b`, `\beval\s*\(`},
	},
	langPerl: {
		connects: []string{`\bsocket\s*\(`, `\bIO::Socket\b`, `\bNet::Telnet\b`},
		receives: []string{`<\s*\$?\w+\s*>`, `\brecv\s*\(`, `\bsysread\b`, `->\s*(getline|recv)\b`},
		handoff:  []string{`\bopen\s*\(?\s*\*?STD(IN|OUT|ERR)\s*,\s*['"][+<>]*&`, `\bfdopen\b`, `\bdup2\b`, fdRedirect},
		spawns:   []string{`\bexec\b`, `\bsystem\b`, `\bqx\b`, "`", `\bopen\s*\([^)]*\|`, `\beval\b`},
	},
	langRuby: {
		connects: []string{`\bTCPSocket\b`, `\bTCPServer\b`, `\bUDPSocket\b`, `\bSocket\.(tcp|new|tcp_server_loop|udp_server_loop)\b`, `\bSSLSocket\b`},
		receives: []string{`\.(gets|read|recv|readline|readpartial|each_line)\b`},
		handoff:  []string{`\[\s*:in\s*,`, `:(in|out|err)\s*=>`, `\b(in|out|err):\s*\w`, `\.reopen\s*\(`, fdRedirect},
		spawns:   []string{`\bexec\b`, `\bsystem\b`, `\bspawn\b`, `\bIO\.popen\b`, `\bOpen3\b`, `%x`, "`", `\beval\b`},
	},
	langPHP: {
		connects: []string{`(?i)\bp?fsockopen\s*\(`, `(?i)\bstream_socket_(client|server)\s*\(`, `(?i)\bsocket_(create|connect|bind|listen)\s*\(`},
		receives: []string{`(?i)\bsocket_(read|recv)\s*\(`, `(?i)\bf(read|gets)\s*\(`, `(?i)\bstream_get_contents\s*\(`},
		handoff:  []string{`(?i)\barray\s*\(\s*0\s*=>\s*\$`, `\[\s*0\s*=>\s*\$`, fdRedirect},
		spawns:   []string{`(?i)\b(exec|system|shell_exec|passthru|popen|proc_open|pcntl_exec)\s*\(`, "`", `(?i)\beval\s*\(`},
	},
	langLua: {
		connects: []string{`\bsocket\.(tcp|udp|connect|bind)\b`, `:connect\s*\(`, `\brequire\s*\(?\s*["']socket["']\s*\)?\s*\.\s*(tcp|udp|connect|bind)\b`},
		receives: []string{`:receive\s*\(`},
		handoff:  []string{fdRedirect},
		spawns:   []string{`\bos\.execute\b`, `\bio\.popen\b`, `\bloadstring\b`, `\bload\s*\(`},
	},
	langTcl: {
		connects: []string{`\[\s*socket\s`, `(^|[;\n{])\s*socket\s+-server\b`},
		receives: []string{`\bgets\s+\$`, `\bread\s+\$`},
		handoff:  []string{fdRedirect},
		spawns:   []string{`\bexec\s`, `\beval\s`, `\bopen\s+["{]?\|`},
	},
	langJulia: {
		connects: []string{`\bconnect\s*\(`, `\blisten\s*\(`},
		receives: []string{`\breadline\s*\(`, `\bread(avail)?\s*\(`},
		handoff:  []string{`\bredirect_std(in|out|err)\s*\(`, fdRedirect},
		spawns:   []string{"`", `\brun\s*\(`, `\bpipeline\s*\(`, `\beval\s*\(`},
	},
	langJVM: {
		connects: []string{`\bjava\.net\.(Socket|ServerSocket)\b`, `\bnew\s+(Server)?Socket\s*\(`},
		receives: []string{`\bgetInputStream\s*\(`},
		handoff:  []string{`\bredirect(Input|Output)\b`, `\binheritIO\b`, fdRedirect},
		spawns:   []string{`\bProcessBuilder\b`, `\bRuntime\.getRuntime\s*\(\s*\)\s*\.\s*exec\b`, `\beval\s*\(`},
	},
	langGo: {
		connects: []string{`\bnet\.(Dial|DialTCP|DialUDP|DialTimeout|Listen|ListenTCP)\b`, `\btls\.(Dial|Listen)\b`},
		receives: []string{`\.Read\s*\(`, `\bbufio\.NewReader\b`, `\bbufio\.NewScanner\b`},
		handoff:  []string{`\.Std(in|out|err)\s*=`, `\bsyscall\.Dup[23]\b`, `\bunix\.Dup[23]\b`, fdRedirect},
		spawns:   []string{`\bexec\.Command(Context)?\b`, `\bsyscall\.Exec\b`, `\bos\.StartProcess\b`},
	},
	langAwk: {
		connects: []string{`/inet[46]?/(tcp|udp)/`},
		receives: []string{`\|&\s*getline`},
		handoff:  []string{fdRedirect},
		spawns:   []string{`\bsystem\s*\(`, `\(\s*\w+\s*\|&\s*getline\s*\)`, `[^|]\|\s*[A-Za-z_"(]`},
	},
	langPwsh: {
		connects: []string{`(?i)\bNet\.Sockets\.(TcpClient|TcpListener|Socket|UdpClient)\b`, `(?i)\bNew-Object\s+(-TypeName\s+)?["']?(System\.)?Net\.Sockets\b`},
		receives: []string{`(?i)\.GetStream\s*\(`, `(?i)\.Read\s*\(`, `(?i)\.AcceptTcpClient\s*\(`},
		handoff:  []string{`(?i)\bRedirectStandard(Input|Output)\b`},
		spawns:   []string{`(?i)\biex\b`, `(?i)\binvoke-expression\b`, `(?i)\bstart-process\b`, `(?i)\[(System\.)?Diagnostics\.Process\]`, `(?i)\bscriptblock\]::create\b`, `(?i)\bcmd(\.exe)?\s*/c\b`},
	},
}

// factRE holds the compiled facts of one language.
type factRE struct{ connects, receives, handoff, spawns *lazyRE }

// shellFactRE compiles the facts on first use (the hook pays every
// package's start-up on every call).
var shellFactRE = sync.OnceValue(func() map[lang]factRE {
	m := map[lang]factRE{}
	for l, f := range shellFacts {
		m[l] = factRE{alt(f.connects), alt(f.receives), alt(f.handoff), alt(f.spawns)}
	}
	return m
})

// alt joins patterns into one alternation, compiled on first use.
func alt(ps []string) *lazyRE {
	if len(ps) == 0 {
		return lazyRegexp(`$^`)
	}
	return lazyRegexp("(?:" + strings.Join(ps, ")|(?:") + ")")
}

// shellCode is what the facts say of a program text.
type shellCode struct {
	connects, receives, handoff, spawns bool
}

// readShellCode applies the facts of language l to code.
func readShellCode(l lang, code string) (shellCode, bool) {
	re, ok := shellFactRE()[l]
	if !ok || !re.connects.MatchString(code) {
		return shellCode{}, false
	}
	return shellCode{
		connects: true,
		receives: re.receives.MatchString(code),
		handoff:  re.handoff.MatchString(code),
		spawns:   re.spawns.MatchString(code),
	}, true
}

// codeShell reports whether the program text of c, in language l, is a
// remote shell: it connects or listens, spawns, and either hands the
// connection's descriptor to what it spawns or runs what it receives.
// For the languages whose run calls the shell reader reads, a program
// that hands nothing over and whose every command is a known program
// that reads no code (socket.recv(…) then subprocess.run(["make"])) is
// not one: what it runs does not come from the connection.
func (a *analyzer) codeShell(c *shell.Command, l lang, code string) bool {
	f, ok := readShellCode(l, code)
	if !ok || !f.spawns {
		return false
	}
	if f.handoff {
		return true
	}
	if !f.receives {
		return false
	}
	switch l {
	case langPython, langNode, langPerl, langRuby, langPHP:
	default:
		return true
	}
	return !a.staticChildren(c)
}

// staticChildren reports whether c's inline program runs commands and
// every one is a known program, named literally, that reads no code.
func (a *analyzer) staticChildren(c *shell.Command) bool {
	found := false
	for _, x := range a.cmds {
		if x.Parent != c || !inlineVia(x.Via) {
			continue
		}
		found = true
		if x.Name == "" || x.Inv.Program() == nil || runsCode(x.Name) {
			return false
		}
	}
	return found
}
