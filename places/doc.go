// Package places knows what a path, a URL, a host or a token is, so that
// every analyzer judges them alike ("Analyzers do not import
// each other. Shared knowledge — what a path is: a secret, a system root,
// a cache; what a URL is — lives in its own package below the
// analyzers"). It holds no rules and reports nothing: analyzers decide
// what to do with what it says.
//
// Paths: [Classify] names the kind of secret or login file a path is
// (private key, credential store, project secret, system secret,
// authentication file); [Protected] says which may not be destroyed,
// [Holds] which trees contain secrets, [AppendTarget] which files grant
// access when appended to; [Write] says what writing a path puts at
// stake (login and privilege files, scheduled jobs, services, boot
// scripts, shell startup files, git internals, an agent's or IDE's
// settings, system roots) and [Agent] tells an agent's settings from its
// own working files (plans, memory). toolwall's own files are not known
// here: a caller passes them in. Paths are judged by name; the file
// system is never touched.
//
// URLs and hosts: [ParseURL] reads a URL's host the way real URL parsers
// read it and [NetworkOf] places an address (public, reserved, private,
// loopback, cloud metadata), before any DNS lookup, with the names only
// a cluster's DNS or a home router answers marked ([URL.Internal]); [Drop] names file
// drops, paste sites, webhooks and request catchers.
//
// Tokens: [Token] recognises credential formats of common issuers
// (AWS, GitHub classic and fine-grained, GitLab, Slack, Stripe, Google,
// Anthropic, OpenAI, npm, Hugging Face, PyPI, Docker Hub, JSON Web
// Tokens, private key blocks, and more) with the [Service] each belongs
// to; [SecretName] and [NameService] read variable names
// (OPENAI_API_KEY), [ProgramService] the service whose token a client
// prints (gh auth token).
//
// Nothing here is built at package initialisation: tables are switch
// statements or built once on first use (sync.Once), so a hook process
// that never asks pays nothing.
//
// Sources: the tool-executor framework (read sandbox deny_read of **/*.env and secrets; SSRF
// protection: scheme check, pre-DNS host blocklist, post-DNS address
// check), RFC 6890 and its updates (special-purpose addresses), the
// WHATWG URL standard (host parsing), inet_aton(3), the issuers' own
// documentation of their token formats, and MITRE ATT&CK T1552, T1555,
// T1539 (where credentials are kept).
package places
