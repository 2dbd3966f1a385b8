package ops

import (
	"path"
	"strings"

	"github.com/toolwall/toolwall/shell"
)

func init() {
	register((*checker).aws, "aws")
	register((*checker).kubectl, "kubectl", "oc")
	register((*checker).helm, "helm")
	register((*checker).terraform, "terraform", "tofu", "terragrunt")
	register((*checker).pulumi, "pulumi")
	register(destroyVerb("destroy"), "cdk")
	register(destroyVerb("remove"), "serverless", "sls")
	register(destroyVerb("delete"), "sam", "eksctl")
	register((*checker).docker, "docker", "podman", "nerdctl")
	register((*checker).compose, "docker-compose", "podman-compose")
	register((*checker).cloudDelete, "gcloud", "az", "doctl")
	register((*checker).gsutil, "gsutil")
	register((*checker).paas, "heroku", "fly", "flyctl", "vercel", "netlify")
}

// infraAsk reports a destructive infrastructure operation.
func (k *checker) infraAsk(x cmdCtx, rule, why string) {
	k.ask(x, rule, catInfra, why,
		"Ask the user before deleting infrastructure; to look, use the read-only verbs (get, list, describe, plan)")
	k.protect("")
}

var awsSpec = &optSpec{
	long: kinds("profile=", "region=", "output=", "endpoint-url=", "query=", "color=", "ca-bundle=",
		"cli-read-timeout=", "cli-connect-timeout=", "cli-binary-format=", "debug", "no-verify-ssl",
		"no-paginate", "no-sign-request", "no-cli-pager", "cli-auto-prompt", "no-cli-auto-prompt"),
}

// aws: delete-*, terminate-*, purge-* operations, s3 rm --recursive and
// s3 rb --force; s3 sync --delete warns. --dry-run / --dryrun pass.
func (k *checker) aws(x cmdCtx) {
	p := parseArgs(x.args[1:], awsSpec)
	if p.has("--dry-run", "--dryrun", "--generate-cli-skeleton") {
		return
	}
	service, op := p.operand(0), p.operand(1)
	if service == "sqs" && strings.HasPrefix(op, "delete-message") {
		return // consuming a queue: the message was processed
	}
	if service == "iam" {
		k.awsIAM(x, op)
	}
	switch {
	case service == "s3" && op == "rm" && p.has("--recursive"):
		k.infraAsk(x, "infra.cloud-delete", "aws s3 rm --recursive deletes every object under the prefix, and S3 has no undo")
	case service == "s3" && op == "rb" && p.has("--force"):
		k.infraAsk(x, "infra.cloud-delete", "aws s3 rb --force deletes the bucket with every object in it")
	case service == "s3" && op == "sync" && p.has("--delete"):
		k.warn(x, "infra.s3-sync-delete", catInfra,
			"aws s3 sync --delete deletes destination objects that are not in the source",
			"Check the destination with --dryrun first")
	case strings.HasPrefix(op, "delete-"), strings.HasPrefix(op, "terminate-"),
		strings.HasPrefix(op, "purge-"), strings.HasPrefix(op, "batch-delete-"):
		k.infraAsk(x, "infra.cloud-delete", "aws "+service+" "+op+" deletes cloud resources, and most cannot be restored")
	}
}

var kubectlSpec = &optSpec{
	short: shorts("n:s:l:o:f:c:L:k:AR"),
	long: kinds("namespace=", "context=", "kubeconfig=", "cluster=", "user=", "server=", "token=",
		"as=", "as-group=", "as-uid=", "request-timeout=", "selector=", "output=", "field-selector=",
		"filename=", "kustomize=", "grace-period=", "cascade=?", "dry-run=?", "all", "all-namespaces",
		"force", "wait=?", "timeout=", "now", "ignore-not-found=?", "recursive", "raw=", "v=",
		"container=", "pod-running-timeout=", "template=", "certificate-authority=",
		"client-certificate=", "client-key=", "insecure-skip-tls-verify", "stdin", "tty"),
}

// kubeDataKinds are resource kinds whose deletion takes data or a whole
// environment with it.
var kubeDataKinds = map[string]bool{
	"namespace": true, "namespaces": true, "ns": true,
	"persistentvolume": true, "persistentvolumes": true, "pv": true,
	"persistentvolumeclaim": true, "persistentvolumeclaims": true, "pvc": true,
	"customresourcedefinition": true, "customresourcedefinitions": true, "crd": true, "crds": true,
	"node": true, "nodes": true, "no": true,
}

// kubectl: delete of namespaces, volumes, CRDs or nodes, or of --all /
// --all-namespaces; exec bodies are checked as commands.
func (k *checker) kubectl(x cmdCtx) {
	p := parseArgs(x.args[1:], kubectlSpec)
	switch p.operand(0) {
	case "exec":
		k.inner(x, p.afterDashdash())
		return
	case "delete":
	default:
		return
	}
	if o, ok := p.last("--dry-run"); ok && o.value != "none" && o.value != "false" {
		return
	}
	all := p.has("--all", "-A", "--all-namespaces")
	kind := ""
	for _, r := range strings.Split(p.operand(1), ",") {
		r, _, _ = strings.Cut(r, "/")
		r, _, _ = strings.Cut(strings.ToLower(r), ".")
		if kubeDataKinds[r] {
			kind = r
		}
	}
	switch {
	case kind != "":
		k.infraAsk(x, "infra.kubectl-delete", "deleting a "+kind+" takes everything in it (workloads, volumes, data) with it")
	case all:
		k.infraAsk(x, "infra.kubectl-delete", "kubectl delete --all / --all-namespaces deletes every matching resource at once")
	}
}

// helm: uninstall removes a release's resources; it can be reinstalled, so
// it warns.
func (k *checker) helm(x cmdCtx) {
	p := parseArgs(x.args[1:], &optSpec{short: shorts("n:"), long: kinds("namespace=", "kube-context=", "kubeconfig=", "dry-run")})
	switch p.operand(0) {
	case "uninstall", "delete", "del", "un":
		if !p.has("--dry-run") {
			k.warn(x, "infra.helm-uninstall", catInfra,
				"helm uninstall removes every resource of the release",
				"Make sure this is the release you mean")
		}
	}
}

var terraformSpec = &optSpec{
	long: kinds("chdir=", "var=", "var-file=", "target=", "replace=", "parallelism=", "lock-timeout=",
		"state=", "state-out=", "backup=", "out=", "destroy=?", "help"),
	singleDash: true,
}

// terraform, tofu, terragrunt: destroy, and apply -destroy.
func (k *checker) terraform(x cmdCtx) {
	p := parseArgs(x.args[1:], terraformSpec)
	if p.has("--help") {
		return
	}
	destroy := false
	if o, ok := p.last("--destroy"); ok && (!o.hasValue || o.value == "true" || o.value == "1") {
		destroy = p.operand(0) != "plan"
	}
	verbs := p.operands
	if x.name != "terragrunt" && len(verbs) > 1 {
		verbs = verbs[:1]
	}
	for _, w := range verbs {
		if w.Value == "destroy" {
			destroy = true
		}
	}
	if destroy {
		k.infraAsk(x, "infra.destroy", x.name+" destroy deletes every resource the configuration manages")
		return
	}
	k.terraformState(x, &p)
}

// pulumi: destroy / down, and stack rm.
func (k *checker) pulumi(x cmdCtx) {
	p := parseArgs(x.args[1:], &optSpec{short: shorts("C:s:"), long: kinds("cwd=", "stack=", "preview-only", "color=")})
	if p.has("--preview-only") {
		return
	}
	switch {
	case p.operand(0) == "destroy", p.operand(0) == "down":
		k.infraAsk(x, "infra.destroy", "pulumi destroy deletes every resource of the stack")
	case p.operand(0) == "stack" && (p.operand(1) == "rm" || p.operand(1) == "remove"):
		k.infraAsk(x, "infra.destroy", "pulumi stack rm deletes the stack and its state")
	}
}

// destroyVerb makes the rule of a deploy tool whose first operand verb
// tears a whole stack down (cdk destroy, serverless remove, sam delete,
// eksctl delete).
func destroyVerb(verb string) func(*checker, cmdCtx) {
	return func(k *checker, x cmdCtx) {
		p := parseArgs(x.args[1:], &optSpec{})
		if p.operand(0) == verb {
			k.infraAsk(x, "infra.destroy", x.name+" "+verb+" tears down the deployed stack and its resources")
		}
	}
}

var dockerSpec = &optSpec{
	short: shorts("H:c:l:D"),
	long: kinds("host=", "context=", "config=", "log-level=", "tlscacert=", "tlscert=", "tlskey=",
		"tls", "tlsverify", "debug", "root=", "runroot=", "url=", "connection=", "identity=",
		"storage-driver=", "remote"),
	posix: true,
}

var dockerExecSpec = &optSpec{
	short: shorts("e:u:w:itdT"),
	long:  kinds("env=", "env-file=", "user=", "workdir=", "detach-keys=", "index=", "interactive", "tty", "detach", "privileged", "no-TTY"),
	posix: true,
}

// docker, podman, nerdctl: system prune / reset, volume rm / prune, rm -f of
// a dynamic list or --all, compose down -v; exec bodies are checked as
// commands.
func (k *checker) docker(x cmdCtx) {
	p := parseArgs(x.args[1:], dockerSpec)
	if len(p.operands) == 0 {
		return
	}
	sub := p.operand(0)
	rest := p.operands[1:]
	if sub == "container" && len(rest) > 0 {
		sub, rest = "container "+rest[0].Value, rest[1:]
	}
	switch sub {
	case "system", "volume":
		verb := ""
		if len(rest) > 0 {
			verb = rest[0].Value
		}
		switch {
		case sub == "system" && (verb == "prune" || verb == "reset"):
			k.infraAsk(x, "infra.container-prune", x.name+" system "+verb+" deletes stopped containers, images, networks and, with --volumes, the data volumes")
		case sub == "volume" && (verb == "rm" || verb == "remove" || verb == "prune"):
			k.infraAsk(x, "infra.volume-delete", x.name+" volume "+verb+" deletes the data stored in the volumes")
		}
	case "rm", "container rm", "container remove":
		q := parseArgs(rest, &optSpec{short: shorts("fvla"), long: kinds("force", "volumes", "link", "all", "time=", "depend", "ignore")})
		if (q.has("-f", "--force") && anyDynamic(q.operands)) || q.has("-a", "--all") {
			k.infraAsk(x, "infra.container-delete", "it force-removes every container it is given, running ones included, from a list only known at run time")
		}
	case "compose":
		k.composeArgs(x, rest)
	case "exec", "container exec":
		q := parseArgs(rest, dockerExecSpec)
		if len(q.operands) > 1 {
			k.inner(x, q.operands[1:])
		}
	case "run", "create", "container run", "container create":
		if why := hostEscape(x.args[1:]); why != "" {
			k.infraAsk(x, "infra.container-escape", why)
		}
	}
}

// hostEscape says why a container's options hand it the host: the host's
// root or the container engine's socket mounted, --privileged, or the
// host's process namespace. It scans the words of the run command (an
// option spelled inside the container's own command line is read too,
// which errs on the side of asking).
func hostEscape(words []shell.Word) string {
	for i, w := range words {
		v, next := w.Value, ""
		if i+1 < len(words) {
			next = words[i+1].Value
		}
		switch {
		case v == "--privileged" || v == "--privileged=true":
			return "--privileged gives the container full access to the host's devices and kernel"
		case v == "--pid=host" || v == "--pid" && next == "host":
			return "--pid=host lets the container see and signal every process of the host"
		}
		spec := ""
		switch {
		case v == "-v" || v == "--volume" || v == "--mount":
			spec = next
		case strings.HasPrefix(v, "--volume=") || strings.HasPrefix(v, "--mount="):
			spec = v[strings.IndexByte(v, '=')+1:]
		case strings.HasPrefix(v, "-v") && len(v) > 2:
			spec = v[2:]
		}
		if spec == "" {
			continue
		}
		host := spec
		if strings.Contains(spec, "source=") || strings.Contains(spec, "src=") {
			for _, kv := range strings.Split(spec, ",") {
				if k, val, ok := strings.Cut(kv, "="); ok && (k == "source" || k == "src") {
					host = val
				}
			}
		} else if h, _, ok := strings.Cut(spec, ":"); ok {
			host = h
		}
		switch path.Clean(host) {
		case "/":
			return "it mounts the host's whole file system into the container, where anything can change or delete it"
		case "/var/run/docker.sock", "/run/docker.sock", "/run/podman/podman.sock":
			return "it mounts the container engine's socket, which controls the host as root"
		}
	}
	return ""
}

// compose is the standalone docker-compose / podman-compose.
func (k *checker) compose(x cmdCtx) {
	k.composeArgs(x, x.args[1:])
}

var composeSpec = &optSpec{
	short: shorts("f:p:"),
	long:  kinds("file=", "project-name=", "profile=", "env-file=", "project-directory=", "parallel=", "ansi=", "progress="),
	posix: true,
}

// composeArgs: down -v deletes the project's volumes; exec bodies are
// checked as commands.
func (k *checker) composeArgs(x cmdCtx, args []shell.Word) {
	p := parseArgs(args, composeSpec)
	switch p.operand(0) {
	case "down":
		q := parseArgs(p.operands[1:], &optSpec{short: shorts("vt:"), long: kinds("volumes", "rmi=", "timeout=", "remove-orphans")})
		if q.has("-v", "--volumes") {
			k.infraAsk(x, "infra.volume-delete", "compose down --volumes deletes the project's named volumes and the data in them")
		}
	case "exec":
		q := parseArgs(p.operands[1:], dockerExecSpec)
		if len(q.operands) > 1 {
			k.inner(x, q.operands[1:])
		}
	}
}

// cloudDelete: gcloud, az and doctl name the delete verb as a word
// ("gcloud projects delete", "az group delete", "az storage blob
// delete-batch").
func (k *checker) cloudDelete(x cmdCtx) {
	for _, w := range x.args[1:] {
		v := w.Value
		if strings.HasPrefix(v, "-") {
			continue
		}
		if v == "delete" || strings.HasPrefix(v, "delete-") {
			k.infraAsk(x, "infra.cloud-delete", x.name+" "+v+" deletes cloud resources, and most cannot be restored")
			return
		}
	}
	p := parseArgs(x.args[1:], &optSpec{short: shorts("r"), long: kinds("recursive")})
	if x.name == "gcloud" && p.operand(0) == "storage" && p.operand(1) == "rm" && p.has("-r", "--recursive") {
		k.infraAsk(x, "infra.cloud-delete", "gcloud storage rm --recursive deletes every object under the path")
	}
}

// gsutil: rm -r deletes every object under the path.
func (k *checker) gsutil(x cmdCtx) {
	p := parseArgs(x.args[1:], &optSpec{short: shorts("rRafmo:h:")})
	if p.operand(0) == "rm" && p.has("-r", "-R", "-a") {
		k.infraAsk(x, "infra.cloud-delete", "gsutil rm -r deletes every object under the path")
	}
}

// paas: heroku apps:destroy / pg:reset, fly … destroy, vercel rm, netlify
// sites:delete.
func (k *checker) paas(x cmdCtx) {
	p := parseArgs(x.args[1:], &optSpec{short: shorts("a:r:"), long: kinds("app=", "remote=", "confirm=", "scope=", "token=")})
	first, second := p.operand(0), p.operand(1)
	hit := false
	switch x.name {
	case "heroku":
		switch first {
		case "apps:destroy", "addons:destroy", "pg:reset", "destroy":
			hit = true
		}
	case "fly", "flyctl":
		hit = first == "destroy" || second == "destroy" || second == "delete"
	case "vercel":
		hit = first == "rm" || first == "remove" || (first == "project" && (second == "rm" || second == "remove"))
	case "netlify":
		hit = first == "sites:delete"
	}
	if hit {
		k.infraAsk(x, "infra.cloud-delete", x.name+" "+strings.TrimSpace(first+" "+second)+" deletes the app or its data for good")
	}
}
