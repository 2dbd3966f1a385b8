// Package remote is the analyzer for code that arrives from the network
// (or hidden in an encoded blob) and runs without anyone reading it, after
// the pipe-to-shell and encoded-command patterns of the tool shield's UnixShield
// table and the shell guardrail's "block the irreversible": once fetched code has
// run, nothing can be taken back.
//
// Rules (all deny unless noted):
//
//   - remote.pipe-to-shell: network content (curl, curlie, wget, fetch,
//     httpie, nc, openssl s_client, gh api, gh release download -O -,
//     aws s3 cp … -, gsutil/gcloud storage/rclone cat, git archive
//     --remote, ssh with a remote command, a one-liner that fetches)
//     reaches an interpreter that reads its program from stdin (sh, bash,
//     zsh, dash, ksh, fish, python, perl, ruby, node, deno/bun run -, php,
//     lua, pwsh, tclsh, expect, julia, osascript, Rscript -; "-s", "-",
//     /dev/stdin; the login shell of sudo -s/-i, doas -s, su), through any
//     pass-through stages (tee, cat, gunzip, base64 -d, sed, dd, ...); or
//     an awk program that runs its input (system($0), print | "sh"); or an
//     interpreter whose code is made at run time while its stdin is
//     network content (curl … | bash -c "$(cat)", … | while read l; do
//     eval "$l"; done); or an interpreter reading a descriptor an earlier
//     exec opened on network content (exec 3< <(curl …); bash <&3); a
//     command reading /dev/tcp or /dev/udp on stdin is network content
//     too (cat < /dev/tcp/h/80 | sh). The walk upstream stops at stages
//     that do not forward their input (sha256sum, wc, grep -c, echo). An
//     upstream stage whose command name is dynamic → ask.
//   - remote.process-substitution: bash <(curl …), source <(wget -O- …),
//     bash < <(curl …).
//   - remote.substituted-script: sh -c "$(curl …)", eval "`wget -O- …`",
//     a heredoc holding $(curl …) fed to a shell; ask when the code comes
//     from a variable and the same line captured network output.
//   - remote.decoded-payload: base64 -d (also --dec…, python3 -m base64
//     -d) / xxd -r / openssl -d / gpg -d / rev / echo -e or printf '\x..'
//     (also through %b) feeding an interpreter, static text rewritten by
//     tr or sed on its way into one (rot13), pwsh -EncodedCommand (with
//     -w/-ex/-wd parameters in any abbreviation), and one-liners that
//     decode and eval. A decompressor reading a local file (zcat f | sh)
//     is a local script, tagged exec-local.
//   - remote.interpreter-exec: one-liners (python -c, node -e, perl -e,
//     ruby -e, php -r, lua -e, pwsh -c) that fetch and evaluate.
//   - remote.download-exec: one call downloads a file and executes it
//     (curl -o a.sh URL && sh a.sh).
//   - interp.recursive-delete: one-liners that delete a tree
//     (shutil.rmtree, os.removedirs, fs.rmSync/rmdirSync/rm with
//     recursive, rimraf, fs-extra remove, File::Path rmtree/remove_tree,
//     FileUtils.rm_rf/rm_r/remove_dir, Remove-Item -Recurse). A literal
//     target is judged as "rm -rf TARGET" by the destroy analyzer (spec
//     c428): deny where that denies (shutil.rmtree('/etc'), rmtree('.'),
//     Remove-Item -Recurse ~), ask where it asks, nothing where it passes
//     (shutil.rmtree('build')); the root or the home directory however
//     the language spells it denies; a target that is not a literal asks.
//   - interp.dynamic-command (ask): code only known at run time — a
//     shell, eval, trap, sed e, vim -c or inline program running text
//     built from a variable, a command's output, its input or a runner's
//     placeholder (sh -c "$CMD", eval "$r", bash <<<"$x", xargs -I{} sh
//     -c {}, python -c "exec(input())", os.system(cmd)): the reader's
//     command whose program is Dynamic for that reason
//     (shell.Command.BuiltAtRunTime). Text the reader or its dry run
//     resolves is judged as what it resolves to instead.
//   - remote.package-install: a package installed as root from a URL
//     (rpm -U URL, dnf/yum/zypper install URL, pacman -U URL, brew
//     install URL) or from a file this call downloaded (wget x.deb && dpkg
//     -i x.deb; apt install ./x.deb).
//   - remote.reverse-shell: a shell handed to the network: a shell whose
//     stdin or stdout is /dev/tcp or /dev/udp, netcat's -e/-c or socat's
//     EXEC:/SYSTEM: running a shell, an interpreter or a program the
//     catalog does not know, or a shell piped into netcat (a server that
//     runs a known program that reads no code, nc -l -e /bin/cat, is not
//     one); socket(1)'s -p; a shell, an interpreter or a command named
//     at run time reading or writing a descriptor that exec opened on
//     /dev/tcp or zsh's ztcp left in $REPLY; a terminal emulator on
//     another host's X display (xterm -display h:1); and a program of any
//     language (Python, Node.js, Perl, Ruby, PHP, Lua, Tcl, Julia,
//     jrunscript, awk, PowerShell, Go run from a file this call wrote)
//     that connects or listens, spawns, and either duplicates the
//     connection onto what it spawns or runs what it receives, by the
//     facts each language declares in netshell.go (a program that reads
//     a socket and runs only fixed, known commands is not one); a
//     PowerShell call's own text is held to the PowerShell facts.
//   - fork-bomb: one-liner code that forks in an endless loop (perl
//     'fork while fork', python 'while True: os.fork()', ruby 'loop {
//     fork }', php pcntl_fork in while(1)).
//   - ssrf.metadata, ssrf.obfuscated-host, ssrf.scheme (deny),
//     ssrf.private (ask): a URL a command connects to, judged by the
//     rules WebFetch's URLs are judged by, relaxed for commands (package
//     ssrf, CheckCommandURL). The URLs are the words the catalog gives
//     the url role (curl, wget, aria2c, HTTPie, fetch, curlie, git
//     clone, aws --endpoint-url), curl's proxies and --resolve and
//     --connect-to pins, static text piped into xargs curl, and the URLs
//     written in one-liners that fetch (python -c urllib/requests, node
//     -e fetch/http.get, ruby -e Net::HTTP/open-uri, php -r
//     file_get_contents, perl -e LWP), with a quoted dotted-quad address
//     or metadata name in such code read as a host
//     (socket.create_connection(("169.254.169.254", 80))). A metadata
//     endpoint, a non-public host in a disguised spelling
//     (http://0x7f000001/, http://0/, localhost., 127.0.0.1.nip.io), a
//     DNS-rebinding name and gopher:/dict: to a non-public host are
//     refused; a cluster-internal name (kubernetes.default,
//     *.svc.cluster.local, *.consul) and a home router's admin name ask;
//     localhost, 127.0.0.1 and private addresses plainly named pass (a
//     developer's own services).
//
// Every program is read through its catalog entry (package programs):
// an interpreter's language and its code, script and stdin roles, a
// client's output and URL options, a decoder's decode option, by
// canonical name; the analyzer parses no argv of its own. PowerShell's
// case-insensitive, abbreviated parameters are matched by prefix when
// the catalog does not list the spelling.
//
// Effects for chain rules: install-package (the package file of dpkg
// -i, rpm -i, apt/dnf/zypper install of a path, pacman -U, brew install
// of a formula file), build-input (what a build or test tool runs as
// code: the makefiles of make, package.json of npm/pnpm/yarn/bun install
// and run, conftest.py and test files of pytest, setup.py and
// pyproject.toml of pip install DIR, main.go of go run PACKAGE, build.rs
// of cargo); download-file (curl -o/-O/--output/--output-dir,
// > file; wget, wget -O, -P; aria2c -o/-d, httpie/xh -o, fetch -o; a cp,
// install, mv or ln of a file downloaded earlier in the call) with the
// absolute path; download-stdout;
// exec-local (sh f, . f, source f, ./f, /abs/f, python f, cat f | sh,
// sh < f, and every file a command runs by its catalog entry: make -f f,
// go run f.go, awk -f f); egress (curl -d/--data*/--json/-F/-T/-X POST|PUT|PATCH, wget
// --post-*/--body-*/--method, nc/ncat/socat/telnet without -l, scp/rsync/
// sftp to a remote with each local source as Path, ssh with piped or
// redirected stdin, and any curl/wget argument holding a command
// substitution).
//
// Limits: one-liner rules read code as text (string literals are masked
// for the delete rule); code assembled at run time is not seen. Variable
// flow is tracked only as "network output captured somewhere earlier in
// the line". In RootContext the analyzer reports nothing.
package remote
