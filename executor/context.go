package executor

import (
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
)

// ExecutionContext overrides the working directory and environment of one
// call ("Per-call ExecutionContext"). A context built as a
// literal is untrusted — it may come from the model — and its Env is
// filtered through the blocklist after it is merged; only [Trusted]
// contexts (operator-authored configuration) bypass that filter.
type ExecutionContext struct {
	// Name selects a named environment of the executor, from which
	// unspecified fields are taken ("" for none).
	Name string
	// Cwd is the working directory (absolute, or relative to the call's
	// Cwd); "" leaves it to the next layer.
	Cwd string
	// Env sets environment variables (NAME → value).
	Env map[string]string

	trusted bool
}

// Trusted returns a trusted context: its Env is merged without the
// blocklist filter. Use it for operator-authored configuration, never for
// anything the model or a tool input supplies.
func Trusted(name, cwd string, env map[string]string) ExecutionContext {
	return ExecutionContext{Name: name, Cwd: cwd, Env: maps.Clone(env), trusted: true}
}

// IsTrusted reports whether c came from [Trusted].
func (c ExecutionContext) IsTrusted() bool { return c.trusted }

// DefaultBlocklist is the environment blocklist: variables removed from
// the inherited process environment and from every untrusted layer. A
// pattern is a name, or a name with one "*" that matches any run of
// characters; matching ignores case. It holds:
//
//   - code injection into every process or shell the command starts:
//     LD_* (LD_PRELOAD, LD_LIBRARY_PATH, LD_AUDIT, ...), DYLD_*, BASH_ENV,
//     ENV, BASH_FUNC_* (exported functions), SHELLOPTS, BASHOPTS,
//     PROMPT_COMMAND, PS4, IFS, GCONV_PATH, MALLOC_*, NODE_OPTIONS,
//     PYTHONSTARTUP, PYTHONINSPECT, PERL5OPT, PERL5DB, RUBYOPT,
//     GIT_SSH_COMMAND, GIT_EXTERNAL_DIFF, GIT_CONFIG_*, GIT_EXEC_PATH;
//   - credentials: *TOKEN*, *SECRET*, *PASSWORD*, *PASSWD*, *API_KEY*,
//     *APIKEY*, *ACCESS_KEY*, *PRIVATE_KEY*, *CREDENTIAL*, *_AUTH,
//     *SESSION_KEY*, AWS_*, AZURE_CLIENT_*, GOOGLE_APPLICATION_CREDENTIALS,
//     KUBECONFIG, DOCKER_AUTH_CONFIG, NPM_CONFIG__AUTH*, SSH_AUTH_SOCK,
//     GPG_AGENT_INFO;
//   - toolwall's own settings: TOOLWALL_*.
var DefaultBlocklist = []string{
	"LD_*", "DYLD_*", "BASH_ENV", "ENV", "BASH_FUNC_*", "SHELLOPTS", "BASHOPTS",
	"PROMPT_COMMAND", "PS4", "IFS", "GCONV_PATH", "MALLOC_*", "NODE_OPTIONS",
	"PYTHONSTARTUP", "PYTHONINSPECT", "PERL5OPT", "PERL5DB", "RUBYOPT",
	"GIT_SSH_COMMAND", "GIT_EXTERNAL_DIFF", "GIT_CONFIG_*", "GIT_EXEC_PATH",
	"*TOKEN*", "*SECRET*", "*PASSWORD*", "*PASSWD*", "*API_KEY*", "*APIKEY*",
	"*ACCESS_KEY*", "*PRIVATE_KEY*", "*CREDENTIAL*", "*_AUTH", "*SESSION_KEY*",
	"AWS_*", "AZURE_CLIENT_*", "GOOGLE_APPLICATION_CREDENTIALS", "KUBECONFIG",
	"DOCKER_AUTH_CONFIG", "NPM_CONFIG__AUTH*", "SSH_AUTH_SOCK", "GPG_AGENT_INFO",
	"TOOLWALL_*",
}

// UntrustedOnly lists variables an untrusted layer may not set although
// the inherited environment keeps them: they change which program a
// command word runs, or where the shell resolves it, after the gate has
// judged the command (PATH, CDPATH, GLOBIGNORE, HOME, PWD, OLDPWD).
var UntrustedOnly = []string{"PATH", "CDPATH", "GLOBIGNORE", "HOME", "PWD", "OLDPWD"}

// Blocked reports whether name matches one of patterns (see
// [DefaultBlocklist] for the pattern form).
func Blocked(name string, patterns []string) bool {
	n := strings.ToUpper(name)
	for _, p := range patterns {
		p = strings.ToUpper(p)
		if match(p, n) {
			return true
		}
	}
	return false
}

// match matches a pattern with "*" wildcards (any run, possibly empty).
func match(p, s string) bool {
	parts := strings.Split(p, "*")
	if len(parts) == 1 {
		return p == s
	}
	if !strings.HasPrefix(s, parts[0]) {
		return false
	}
	s = s[len(parts[0]):]
	last := parts[len(parts)-1]
	for _, mid := range parts[1 : len(parts)-1] {
		i := strings.Index(s, mid)
		if i < 0 {
			return false
		}
		s = s[i+len(mid):]
	}
	return strings.HasSuffix(s, last)
}

// Environments is what [Resolve] draws on besides the call's own context.
type Environments struct {
	// Named are the named environments ([[executor.environments]] in the
	// configuration), trusted.
	Named map[string]ExecutionContext
	// Default is the default environment ("default_env"), trusted.
	Default ExecutionContext
	// Blocklist replaces DefaultBlocklist when non-nil.
	Blocklist []string
	// Inherit is the process environment as NAME=value pairs; nil means
	// os.Environ().
	Inherit []string
	// Cwd is the fallback working directory; "" means os.Getwd().
	Cwd string
}

// Resolved is a working directory and environment ready for a process.
type Resolved struct {
	// Cwd is absolute and cleaned.
	Cwd string
	// Env holds NAME=value pairs, sorted by name.
	Env []string
	// Dropped lists the variables the blocklist removed from untrusted
	// layers (for the audit log and the model's error).
	Dropped []string
}

// Resolve merges the layers of the tool-executor framework's precedence, highest first: the
// call's own context (ctx; its Cwd, else callCwd), the named environment
// ctx.Name selects, the default environment, then the process working
// directory and inherited environment minus the blocklist. The blocklist
// is re-applied after every merge step once an untrusted layer has been
// merged, so an untrusted caller cannot reintroduce a blocked variable
// (and untrusted layers may not set [UntrustedOnly] variables either). An
// unknown environment name is an error, as is a relative Cwd with no
// absolute directory to resolve it against.
func Resolve(ctx *ExecutionContext, callCwd string, envs Environments) (Resolved, error) {
	block := envs.Blocklist
	if block == nil {
		block = DefaultBlocklist
	}
	var own ExecutionContext
	if ctx != nil {
		own = *ctx
	}
	var named ExecutionContext
	if own.Name != "" {
		n, ok := envs.Named[own.Name]
		if !ok {
			names := slices.Sorted(maps.Keys(envs.Named))
			return Resolved{}, fmt.Errorf("executor: unknown environment %q (known: %s)", own.Name, strings.Join(names, ", "))
		}
		named = n
	}
	// Working directory: first one given, highest layer first.
	base := envs.Cwd
	if base == "" {
		base, _ = os.Getwd()
	}
	cwd := ""
	for _, c := range []string{own.Cwd, callCwd, named.Cwd, envs.Default.Cwd, base} {
		if c != "" {
			cwd = c
			break
		}
	}
	if !filepath.IsAbs(cwd) {
		anchor := callCwd
		if !filepath.IsAbs(anchor) {
			anchor = base
		}
		if !filepath.IsAbs(anchor) {
			return Resolved{}, fmt.Errorf("executor: working directory %q is relative and there is no absolute directory to resolve it against", cwd)
		}
		cwd = filepath.Join(anchor, cwd)
	}
	// Environment: lowest layer first, each later layer overriding.
	inherit := envs.Inherit
	if inherit == nil {
		inherit = os.Environ()
	}
	env := map[string]string{}
	for _, kv := range inherit {
		k, v, ok := strings.Cut(kv, "=")
		if ok && k != "" && !Blocked(k, block) {
			env[k] = v
		}
	}
	var dropped []string
	untrusted := false
	for _, layer := range []ExecutionContext{envs.Default, named, own} {
		maps.Copy(env, layer.Env)
		untrusted = untrusted || (len(layer.Env) > 0 && !layer.trusted)
		if !untrusted {
			continue
		}
		for k := range env {
			if Blocked(k, block) {
				dropped = append(dropped, k)
				delete(env, k)
			}
		}
		if !layer.trusted {
			for k := range layer.Env {
				if Blocked(k, UntrustedOnly) {
					dropped = append(dropped, k)
					restoreFrom(env, k, inherit, envs.Default, named, block)
				}
			}
		}
	}
	out := Resolved{Cwd: filepath.Clean(cwd)}
	for _, k := range slices.Sorted(maps.Keys(env)) {
		out.Env = append(out.Env, k+"="+env[k])
	}
	slices.Sort(dropped)
	out.Dropped = slices.Compact(dropped)
	return out, nil
}

// restoreFrom puts back the value k had before an untrusted layer set it:
// from the trusted layers, else the inherited environment, else unset.
func restoreFrom(env map[string]string, k string, inherit []string, def, named ExecutionContext, block []string) {
	delete(env, k)
	for _, kv := range inherit {
		if name, v, ok := strings.Cut(kv, "="); ok && name == k && !Blocked(k, block) {
			env[k] = v
		}
	}
	for _, layer := range []ExecutionContext{def, named} {
		if v, ok := layer.Env[k]; ok && layer.trusted {
			env[k] = v
		}
	}
}
