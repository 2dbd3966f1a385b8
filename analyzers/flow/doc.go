// Package flow is the analyzer of where bytes come from (package
// provenance): for each command of a Bash call it says, as effects, which
// files the command fills with bytes of which origin — network content a
// client downloads (curl, wget, git clone), and, for every program whose
// catalog entry declares a "flow" (cp, tee, tar -x, unzip, base64 -d,
// xxd -r, openssl enc -d, sed, tr, awk, …), the files it writes from the
// files, URLs and pipes it reads — and which sinks it reaches: a program
// run by its name (looked up on PATH), the files a program runs as code
// by its catalog entry's "runs" (git commit runs .git/hooks/pre-commit,
// go generate its directory), a file's content sent out. A Write call
// marks its file agent-written. The gate folds these effects over the
// session (provenance.Map) and judges each sink by the origins it
// reaches.
//
// Rules of its own, on one call:
//
//   - flow.install-url (ask): a package manager installs from a URL or a
//     repository rather than a name its registry resolves — pip install
//     https://… or git+https://…, npm install https://…tgz or user/repo,
//     npx -p URL, cargo install --git URL: the package's build and
//     install scripts run now, unreviewed.
//   - flow.run-url (ask): a runner runs code straight from the network —
//     npx https://…, uv run https://…/x.py, deno run https://…, go run
//     of a module at a version (example.com/x@latest) that the project's
//     go.mod does not require.
//
// The rules of flows across calls (flow.network-code, flow.agent-code,
// flow.secret-egress, flow.autorun-write) are the gate's: they need the
// session.
package flow
