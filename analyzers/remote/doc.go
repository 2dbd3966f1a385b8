// Package remote is the analyzer for code that arrives from the network
// (or hidden in an encoded blob) and runs without anyone reading it, after
// the pipe-to-shell and encoded-command patterns of seed 000's UnixShield
// table and seed 004's "block the irreversible": once fetched code has
// run, nothing can be taken back.
//
// Rules (all deny unless noted):
//
//   - remote.pipe-to-shell: network content (curl, wget, fetch, httpie,
//     nc, openssl s_client, gh api, a one-liner that fetches) reaches an
//     interpreter that reads its program from stdin (sh, bash, zsh, dash,
//     ksh, fish, python, perl, ruby, node, php, lua, pwsh; "-s", "-",
//     /dev/stdin), through any pass-through stages (tee, cat, gunzip,
//     base64 -d, sed, dd, ...). The walk upstream stops at stages that do
//     not forward their input (sha256sum, wc, grep -c, echo). An upstream
//     stage whose command name is dynamic → ask.
//   - remote.process-substitution: bash <(curl …), source <(wget -O- …),
//     bash < <(curl …).
//   - remote.substituted-script: sh -c "$(curl …)", eval "`wget -O- …`",
//     a heredoc holding $(curl …) fed to a shell; ask when the code comes
//     from a variable and the same line captured network output.
//   - remote.decoded-payload: base64 -d / xxd -r / openssl -d / rev /
//     echo -e '\x..' feeding an interpreter, pwsh -EncodedCommand, and
//     one-liners that decode and eval.
//   - remote.interpreter-exec: one-liners (python -c, node -e, perl -e,
//     ruby -e, php -r, lua -e, pwsh -c) that fetch and evaluate.
//   - remote.download-exec: one call downloads a file and executes it
//     (curl -o a.sh URL && sh a.sh).
//   - interp.recursive-delete (ask; deny for / or the home directory):
//     one-liners that delete a tree (shutil.rmtree, os.removedirs,
//     fs.rmSync/rmdirSync/rm with recursive, rimraf, fs-extra remove,
//     File::Path rmtree/remove_tree, FileUtils.rm_rf/rm_r/remove_dir,
//     Remove-Item -Recurse).
//   - ssrf.metadata: a curl/wget URL that names a cloud metadata endpoint
//     (see package ssrf, CheckCommandURL).
//
// Effects for chain rules: download-file (curl -o/-O/--output/--output-dir,
// > file; wget, wget -O, -P) with the absolute path; download-stdout;
// exec-local (sh f, . f, source f, ./f, /abs/f, python f, cat f | sh,
// sh < f); egress (curl -d/--data*/--json/-F/-T/-X POST|PUT|PATCH, wget
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
