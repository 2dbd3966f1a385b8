// Package shell reads a bash command line the way bash does (the
// shell guardrail's "read compound commands the way the shell does")
// and reports every command that would execute: [Read] parses with
// mvdan.cc/sh/v3/syntax (LangBash) and walks lists, pipelines, subshells,
// groups, if/for/while/until/case/select bodies, functions where called,
// $(…), backticks, <(…), >(…), heredocs, and re-parses the bodies of
// sh -c, eval, trap, su -c, sg, script -c, flock -c, bun exec, watch,
// ssh remote commands, heredocs, here-strings, static text piped into a
// shell or at(1), and the static output of <(…) read as a script
// (`bash <(echo …)`, `source <(…)`, `sh < <(echo …)`). A >(…) reads on
// its stdin what its command writes there (`curl … | tee >(sh)`). GNU
// sed's e command and the e flag of s, and the shell escapes of Vim's -c
// (`:!CMD`, `r !CMD`) and gdb's -ex, are read as the commands they run.
//
// Code only partly known before it runs — a body, eval text, heredoc,
// here-string or echoed text with a variable, a command's output or a
// runner's placeholder in it — is re-read with each unknown part a
// Dynamic word: a command named in it is judged as it is (`bash -c "rm
// -rf ~ $d"`), a command whose program is only known then (`bash -c
// "$CMD"`, `eval "$r"`, `bash <<<"$x"`, `sh -c {}` under xargs -I{},
// `python -c "$CODE"`, `exec(input())`) is emitted with a Dynamic
// program and [Command.BuiltAtRunTime] set. Where the dry run knows the
// words (`x=…; eval "$x"`, eval of what a program prints to set up its
// own environment: `eval "$(ssh-agent -s)"`) its reading stands instead. Wrappers (sudo, doas, pkexec, run0,
// env, command, builtin, exec, nohup, nice, timeout, time, stdbuf, ionice,
// chroot, setsid, busybox, unbuffer, caffeinate, firejail, proxychains,
// torsocks, strace, ltrace, valgrind, gdb --args, taskset, chrt, numactl,
// systemd-run, xvfb-run, dbus-launch, fakeroot, unshare, nsenter, flock,
// eatmydata, nocache, prlimit, setpriv, cgexec, faketime, catchsegv,
// leading NAME=value) are peeled off; xargs and find -exec tails are
// emitted as commands of their own.
//
// Inline programs: the program text of python/python2/python3/python3.N/
// pypy (-c, stdin), node/nodejs/bun (-e, -p, --eval, --print, stdin), deno
// eval, perl (-e, -E, stdin), ruby (-e, stdin) and php (-r, -B, -R, -E,
// stdin) is read for the calls that run a command — Python os.system,
// os.popen, subprocess.*, os.exec*/spawn*, pty.spawn, asyncio
// create_subprocess_*; Node child_process exec/execSync/spawn/spawnSync/
// execFile/execFileSync, Bun.spawn, $`…`, Deno.Command, Deno.run; Perl
// system, exec, readpipe, backticks, qx, piped open; Ruby system, exec,
// spawn, backticks, %x(), IO.popen, Open3.*; PHP system, exec, shell_exec,
// passthru, popen, proc_open, pcntl_exec, backticks — and each command is
// re-read as shell (Depth+1, Parent the interpreter). A string argument is
// shell text; a list (['sh', '-c', X], ['rm', '-rf', p]) is an argv whose
// items are quoted. Literals joined with + (Perl and PHP: .), Python's
// adjacent literals and .split() are followed; a part only known at run
// time (a name, a call, an f-string or #{…} field, $var in a Perl/PHP
// double-quoted string, .format and % fields) becomes a Dynamic word, and
// an argument that is nothing but such a part gives a command whose
// program is Dynamic. A command string that does not parse as shell gives
// one command with a Dynamic program (no *SyntaxError). Text that is only
// data (print('rm -rf /'), a comment, a string that merely names a call)
// is never read as a command.
//
// Limits of that reading (it tokenizes, it does not parse): calls reached
// through getattr, a variable holding a
// function, or an import under another name than `import m as x` / `from
// m import f` are not seen; Node's child_process functions count only
// when the program names the child_process module; regex literals
// holding quotes can mislead the tokenizer; PHP heredocs are not read.
// Program files (python script.py) are not read: the reader never
// touches the file system.
//
// Words come out after quote removal with ~, $HOME, $PWD, $(pwd) and $USER
// resolved from [Options]; anything only known at run time is marked
// Dynamic (what cannot be resolved is not safe).
// Positional parameters ($0, $1…, ${N}, "$@", $*, $#) are resolved where
// the reader knows them: inside an sh -c body from the words after the
// body (`sh -c 'rm -rf "$1"' _ /`), inside a called function from the
// call's arguments, and after `set -- …` / `shift`; at top level they are
// Dynamic.
// Text that is only data (echo arguments, commit messages, a heredoc
// written to a file) never becomes a command.
//
// Aliases: an `alias NAME=TEXT` earlier in the same shell makes a later
// command whose first word is NAME, written as a plain unquoted literal,
// re-read with TEXT in its place (Via "alias NAME", Depth+1; the command
// is also emitted as written). zsh expands aliases in scripts and bash
// does after `shopt -s expand_aliases`; bash applies a definition only
// from the next line on, the reader from the next command on (stricter).
// Not modelled: an alias text ending in a blank (which makes bash expand
// the next word too) and aliases whose text is only known at run time.
//
// What each program does with its arguments comes from the program
// catalog (package programs): wrappers are peeled by their entries, the
// commands a program runs are found by the roles of its operands and
// option values, and every command carries its parsed [Invocation] and
// its [Effect]s (reads, writes, deletes, permission changes, network
// sends and fetches, container mounts). A command on another host (ssh)
// or in a container (docker run, kubectl exec) is Remote; its paths map
// back to the host only under a mount.
//
// Beside the static walk, which reads every branch, a sealed dry run
// (mvdan.cc/sh/v3/interp with every side effect replaced) reads a script
// the way bash expands it when the static walk left a word it could
// resolve: variables, functions, eval, set --, IFS, arrays and loops.
// Nothing is started and no file is opened, created or changed; what is
// only known at run time stays Dynamic. A branch-free script's dry-run
// reading replaces the static reading of a command; otherwise it is added
// beside it. [Script.DryRun] says whether it ran; dryrun.go has the
// bounds. Options.NoDryRun turns it off.
//
// The package holds no rules: analyzers judge the [Script].
//
// Via values: "" (top level), "sh -c" (also su -c, sg, script -c, flock
// -c, bun exec, watch, vim -c !, gdb -ex shell), "eval", "trap", "stdin"
// (text piped or heredoc'd into a shell or at, source /dev/stdin, bash or
// source <(…)), "sed" (sed e), "awk", "code" (program text of another
// language built at run time), "xargs",
// "find -exec", "watch" (watch -x), "$()", "<()" (also >()), "function
// NAME", "alias NAME", "ssh" (the remote command), and for commands run
// by an inline program "python -c", "node -e" (also bun and deno), "perl
// -e", "ruby -e", "php -r" — whether the program came from an option or
// from stdin.
//
// A command with only redirections ("> file") or only assignments
// ("HISTFILE=/dev/null", "PATH=/tmp/x:$PATH") is emitted with no Args and
// Name "": the assignments are in Assigns, so that rules can see a shell
// changing its own environment.
package shell
