// Package secrets finds tool calls that touch secrets: reading a private
// key, a cloud or cluster credential, a system password file or a project
// .env (secrets.read, ask); sending one, a tree holding them, the
// environment, or a secret value to the network (secrets.exfil, deny);
// deleting, emptying, overwriting or appending to the files that control
// logins or hold credentials (secrets.delete-auth, secrets.modify-auth,
// secrets.delete-credential: deny; system configuration under /etc:
// secrets.delete-system, ask); staging a secret into git
// (secrets.commit, ask); serving a tree of secrets over HTTP
// (secrets.serve, ask); hunting the file system for keys
// (secrets.search, ask); printing a credential where the agent reads it
// (secrets.print, ask: gh auth token, kubectl get secret -o yaml, aws
// secretsmanager get-secret-value — the catalog's "prints secret" — but
// not when the output goes to a file, the clipboard or a program that
// keeps it, such as docker login --password-stdin or kubectl apply -f -;
// a file this call wrote such a credential to and then prints asks too,
// and across calls the tags credential (Detail "written", Path the file)
// and show-file (a file printed where the agent reads it) arm
// chain.credential-print); and opening the user's browser profile to
// remote debugging (secrets.session, ask).
//
// It judges the effects the shell reader derives from the program
// catalog (package shell, package programs): reads, writes, deletes,
// moves, links, permission changes, what a command fetches, connects to
// and sends. Program-specific judgments (openssl printing its -in key, git
// show REV:PATH, ssh-keygen overwriting a key on a fed "y", socat's
// addresses, the put commands of sftp scripts, object-storage copies of
// clients not yet in the catalog) read the argv through the invocation
// (shell.Command.Inv); no option is parsed here. What a path, a URL or a
// token is comes from package places.
//
// Secrets in motion. Data reaches a network sink — an
// argument, a header, a URL, a body, a DNS name, the standard input of an
// upload, a /dev/tcp socket — from files it names, from what is piped
// into it, from $(…) substitutions and from variables. Each source is
// judged by its own service:
//
//   - a secret file, a tree holding secrets, or the whole environment
//     ($(env), printenv | …) has no own service: sending it anywhere is
//     denied (secrets.exfil);
//   - an environment variable whose name says it holds a secret
//     ($OPENAI_API_KEY), one key read from a secret file (grep
//     GITHUB_TOKEN .env), or the token a command prints (gh auth token,
//     aws configure get …secret…, kubectl config view --raw, op read,
//     security find-generic-password -w: the catalog's "prints secret")
//     may go to its own service: a host of the issuer its name or the
//     printing client names ([places.NameService],
//     [places.ProgramService]), a destination named by a variable or key
//     of the same service word ($SUPABASE_URL beside $SUPABASE_ANON_KEY,
//     read from the same .env), or this machine. To a known other host it
//     is denied (secrets.exfil); where the destination is only known at
//     run time or the service is unknown, a human decides (secrets.egress,
//     ask); a variable of unknown service may go to a host its name
//     names (MYCOMPANY_TOKEN to api.mycompany.com) or the local network.
//     A single key read and sent only to its own service is not a read;
//   - a credential-shaped token written on the command line or in a
//     fetched URL (AWS, GitHub classic and fine-grained, GitLab, Slack,
//     Stripe, Google, Anthropic, OpenAI, npm, Hugging Face, PyPI, Docker
//     Hub and more, [places.Token]) is denied anywhere but its issuer
//     (secrets.token-egress); a JSON Web Token in a URL goes to the host
//     its "iss" claim names, and one without an issuer asks;
//   - the output of a command that describes the machine or account
//     (whoami, id, hostname, ps, /etc/passwd) sent out asks
//     (secrets.output-egress); a host name built as $(…).domain asks
//     (secrets.dns-data); a local file or a command's output sent to a
//     paste site, file drop, chat webhook or request catcher, or handed to
//     wormhole or croc, asks (secrets.drop).
//
// It follows data through pipes and the commands of a ( … ) or { … }
// stage, xargs and find -exec tails, $(…) substitutions and the
// variables assigned from them, and files this same script copied,
// linked or wrote a secret to (cp key /tmp/k && curl -T /tmp/k …). It
// never touches the file system: paths are judged by name, so a symlink
// to a key is not seen. A command that runs on another host (ssh's
// remote command) has its reads and its egress judged by name — a secret
// read there still enters the conversation, and one sent from there
// still leaves — while its deletes and writes are that host's own (the
// remote authorized_keys ssh-copy-id appends to); a command in a
// container is judged through the host paths mounted into it. A tree
// holding secrets that a remote command reads and prints back (ssh host
// 'tar czf - /etc' > etc.tgz), and a secret file or such a tree that scp
// or rsync copies from host:PATH, reach this machine: a read
// (secrets.read), as ssh host cat /etc/shadow is. A bare "*" stands for
// its directory's entries that do not start with a dot, so /etc/* holds
// /etc/shadow while ~/* does not hold ~/.ssh.
//
// A user who wants one such command to run unasked allows it by name for
// a project in the operator's policy file:
//
//	[[allow]]
//	project = "/home/me/src/app"
//	command = "gh auth token"
//	reason  = "the token of a throwaway test account"
//
// or turns the rule off everywhere with rules.disable =
// ["secrets.print"].
//
// Limits: the shell reader does not say which word a $(…) belongs to;
// substitutions are matched to words by their text, and to every dynamic
// word when none matches. The service of a variable is read from its
// name, never from its value.
//
// Sources: the principles "read the shell as the shell does", "what cannot
// be resolved is not safe" and "block the irreversible"; the tool-executor framework (read
// sandbox deny_read of **/*.env and secrets; risk chains: sensitive read,
// then egress), the shell guardrail (root context gets only the catastrophic set, so
// this analyzer is silent there), MITRE ATT&CK T1552, T1555,
// T1539, T1048, T1567, and the acceptance cases c190–c205, c296–c297,
// c315–c316, c409.
package secrets
